#include "frame.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <optional>

#include "reference/interp/interpreter.h"
#include "sonnx/errors.h"

namespace sonnx {

namespace {

std::mutex fallback_mutex;  // the interpreter fallback is not reentrant across threads

uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t x = a ^ (b + 0x9E3779B97F4A7C15ULL + (a << 6) + (a >> 2));
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ULL;
  return x ^ (x >> 29);
}

// Puts a produced tensor in its planned place: a view into the arena when planned and it fits,
// else the tensor itself (heap). Records its size when measuring.
Value place_output(Frame& f, int slot, Value v) {
  auto s = static_cast<size_t>(slot);
  bool placeable = v.is_tensor() && v.tensor.dtype() != DType::String;
  if (f.measure) (*f.measure)[s] = placeable ? static_cast<int64_t>(v.tensor.byte_size()) : -1;
  if (!placeable || !f.plan || f.plan->offset[s] < 0 || static_cast<int64_t>(v.tensor.byte_size()) > f.plan->bytes[s]) return v;
  Tensor view = Tensor::view(v.tensor.dtype(), v.tensor.shape(), f.arena + f.plan->offset[s]);
  if (v.tensor.byte_size()) std::memcpy(view.raw(), v.tensor.raw(), v.tensor.byte_size());
  return Value(std::move(view));
}

// An output buffer for a fast kernel: in the arena when planned and large enough.
// `bytes` may exceed the plain size (a blocked layout pads channels): off the arena the tensor is
// then a view of a larger buffer kept in f.storage.
Tensor allocate_output(Frame& f, int slot, DType type, const Shape& shape, int64_t bytes) {
  auto s = static_cast<size_t>(slot);
  if (f.measure) (*f.measure)[s] = bytes;
  if (f.plan && f.plan->offset[s] >= 0 && bytes <= f.plan->bytes[s])
    return Tensor::view(type, shape, f.arena + f.plan->offset[s]);
  if (bytes <= shape_size(shape) * static_cast<int64_t>(dtype_size(type))) return Tensor(type, shape);
  f.storage[s] = Tensor(DType::UInt8, {bytes});
  return Tensor::view(type, shape, f.storage[s].raw());
}

// A view step (Step::is_view): its output becomes its input's bytes under the new shape when
// those bytes outlive every reader of the output — a shared tensor (weights, copy-on-write), the
// view group's bytes in the arena (the plan gave them the lifetime of the whole group,
// memory_plan.md §8), or a value this frame never releases (an input, constant or outer value; a
// graph output) when the output is not itself a graph output. Otherwise the step copies.
std::optional<Tensor> as_view(Frame& f, const Step& step, const std::vector<const Value*>& in) {
  int x = step.inputs[0], s = step.outputs[0];
  const Value* v = in[0];
  if (s < 0 || !v || !v->is_tensor() || v->tensor.dtype() == DType::String || f.layout[static_cast<size_t>(x)])
    return std::nullopt;
  std::vector<const Tensor*> tin;
  for (const Value* w : in) tin.push_back(w && w->is_tensor() ? &w->tensor : nullptr);
  Shape shape;
  try {
    shape = step.fast->output_shapes(tin)[0];
  } catch (const Trap&) {
    return std::nullopt;  // the reference reports it
  }
  const Tensor& t = v->tensor;
  auto us = static_cast<size_t>(s);
  auto* bytes = const_cast<std::byte*>(t.raw());  // never written through: kernels only read inputs
  if (f.plan && f.plan->offset[us] >= 0 && bytes == f.arena + f.plan->offset[us])
    return Tensor::view(t.dtype(), std::move(shape), bytes);
  bool kept = f.cg.producer(x) < 0 || f.cg.is_output(x);
  if (!t.is_shared() && !(kept && !f.cg.is_output(s))) return std::nullopt;
  if (f.measure) (*f.measure)[us] = -1;  // a view of bytes outside the arena on every run: none planned
  return t.is_shared() ? t.reshaped(std::move(shape)) : Tensor::view(t.dtype(), std::move(shape), bytes);
}

// Shape computations (Step::foldable) are recorded by the planning run and taken from the plan by
// later runs whose step inputs are the recorded ones: for a Shape or Size, the input's shape.
constexpr int64_t kMaxFoldedElements = 4096;  // larger values are computed on every run

Value folded_input(const Step& step, const Value* v) {
  if (!v) return Value();
  if (!step.reads_only_shape()) return *v;
  const Shape& shape = v->tensor.shape();
  return Value(Tensor::from_vector<int64_t>({static_cast<int64_t>(shape.size())}, shape));
}

bool small_tensor(const Value* v) { return v && v->is_tensor() && v->tensor.size() <= kMaxFoldedElements; }

void record_folded(Frame& f, int i, const Step& step, const std::vector<const Value*>& in) {
  auto rec = std::make_shared<FoldedStep>();
  for (const Value* v : in) {
    if (v && !v->is_tensor()) return;
    if (v && !step.reads_only_shape() && !small_tensor(v)) return;
    rec->inputs.push_back(folded_input(step, v));
  }
  for (int s : step.outputs) {
    const Value* v = s >= 0 ? f.at[static_cast<size_t>(s)] : nullptr;
    if (s >= 0 && !small_tensor(v)) return;
    rec->outputs.push_back(v ? *v : Value());
  }
  (*f.fold_record)[static_cast<size_t>(i)] = std::move(rec);
}

bool take_folded(Frame& f, int i, const Step& step, const std::vector<const Value*>& in) {
  if (!f.plan || f.plan->folded.empty()) return false;
  const FoldedStep* rec = f.plan->folded[static_cast<size_t>(i)].get();
  if (!rec || rec->inputs.size() != in.size()) return false;
  for (size_t k = 0; k < in.size(); ++k) {
    if (in[k] && !in[k]->is_tensor()) return false;
    const Value& want = rec->inputs[k];
    if (!in[k] || !want.is_tensor()) {
      if (static_cast<bool>(in[k]) != want.is_tensor()) return false;
      continue;
    }
    if (step.reads_only_shape()) {
      if (!(folded_input(step, in[k]).tensor == want.tensor)) return false;
    } else if (!(in[k]->tensor == want.tensor)) {
      return false;
    }
  }
  for (size_t k = 0; k < step.outputs.size(); ++k)
    if (step.outputs[k] >= 0) f.at[static_cast<size_t>(step.outputs[k])] = &rec->outputs[k];
  return true;
}

// Names a step that took its outputs from the plan, in kernels_run() and profiles.
class FoldedMarker final : public FastKernel {
 public:
  std::vector<Shape> output_shapes(const std::vector<const Tensor*>&) const override { throw InternalError("folded step"); }
  void run(const std::vector<const Tensor*>&, const std::vector<Tensor*>&) const override { throw InternalError("folded step"); }
  std::string name() const override { return "folded"; }
};
const FoldedMarker folded_marker;

std::vector<const Value*> gather(const Frame& f, const Step& step) {
  std::vector<const Value*> in;
  in.reserve(step.inputs.size());
  for (int s : step.inputs) {
    if (s < 0) {
      in.push_back(nullptr);
      continue;
    }
    const Value* v = f.at[static_cast<size_t>(s)];
    if (!v) throw Trap(step.label() + " cannot run: '" + f.cg.slot_name(s) + "' is not defined");
    in.push_back(v);
  }
  return in;
}

// Runs the reference kernel of one node.
std::vector<Value> run_reference(Frame& f, const Node& node, int64_t version, const KernelEntry* kernel, int64_t opset,
                                 const std::vector<const Value*>& inputs, uint64_t step_seed) {
  if (!kernel) {
    if (!f.fallback) throw Unsupported(node.label() + ": no kernel and no interpreter to run its function body");
    std::lock_guard lock(fallback_mutex);
    return f.fallback->run_node(node, inputs, ValueScope{}, opset);
  }
  uint64_t calls = 0;
  SubgraphRunner runner = [&f, step_seed, &calls](const Graph& g, const std::vector<Value>& in) {
    if (const CompiledGraph* sub = f.cg.subgraph(&g)) return run_nested(*sub, f, in, mix(step_seed, ++calls));
    return run_nested(*f.cg.compile_other(g), f, in, mix(step_seed, ++calls));
  };
  std::mt19937_64 rng;
  bool random = kernel->accuracy == Accuracy::Random;
  if (random) rng.seed(step_seed);
  OpContext ctx(node, version, inputs, runner, random ? &rng : nullptr);
  ctx.set_graph_nodes(&f.cg.graph().nodes);  // Gradient differentiates its enclosing graph
  return kernel->fn(ctx);
}

// A fused step whose fast kernel cannot take these inputs: run its nodes one by one.
// `step_inputs` are the step's inputs as gathered (plain copies where the slot holds a blocked layout).
std::vector<Value> run_chain(Frame& f, const Step& step, const std::vector<const Value*>& step_inputs, uint64_t step_seed) {
  std::map<std::string, Value> local;
  auto find = [&](const std::string& name) -> const Value* {
    if (name.empty()) return nullptr;
    auto it = local.find(name);
    if (it != local.end()) return &it->second;
    int s = f.cg.slot_of(name);
    for (size_t k = 0; k < step.inputs.size(); ++k)
      if (s >= 0 && step.inputs[k] == s) return step_inputs[k];
    return s >= 0 ? f.at[static_cast<size_t>(s)] : f.lookup(name);
  };
  for (size_t k = 0; k <= step.fused.size(); ++k) {
    const Node& n = k == 0 ? *step.node : *step.fused[k - 1];
    std::vector<const Value*> in;
    for (const auto& name : n.inputs) in.push_back(find(name));
    std::vector<Value> out = k == 0 ? run_reference(f, n, step.version, step.kernel, step.opset, in, step_seed)
                                    : run_reference(f, n, step.fused_versions[k - 1], step.fused_kernels[k - 1], step.opset, in,
                                                    step_seed);
    for (size_t i = 0; i < n.outputs.size() && i < out.size(); ++i) local[n.outputs[i]] = std::move(out[i]);
  }
  std::vector<Value> result;
  for (const auto& name : step.fused.back()->outputs) result.push_back(name.empty() ? Value() : local[name]);
  return result;
}

}  // namespace

Frame::Frame(const CompiledGraph& graph, const Frame* parent_frame, uint64_t seed_value)
    : cg(graph),
      parent(parent_frame),
      seed(seed_value),
      own(graph.num_slots()),
      at(graph.num_slots(), nullptr),
      layout(graph.num_slots(), nullptr),
      storage(graph.num_slots()),
      readers_left(new std::atomic<int>[graph.num_slots()]) {
  for (size_t s = 0; s < graph.num_slots(); ++s) readers_left[s] = static_cast<int>(graph.readers(static_cast<int>(s)).size());
  if (parent) {
    fallback = parent->fallback;
    observer = subgraph_observer = parent->subgraph_observer;
  }
}

const Value* Frame::lookup(const std::string& name) const {
  for (const Frame* f = this; f; f = f->parent) {
    int s = f->cg.slot_of(name);
    if (s >= 0 && f->at[static_cast<size_t>(s)]) return f->at[static_cast<size_t>(s)];
  }
  return nullptr;
}

void Frame::bind(const std::vector<const Value*>& inputs) {
  for (const auto& [slot, v] : cg.constants()) at[static_cast<size_t>(slot)] = &v;
  const auto& ins = cg.input_slots();
  for (size_t i = 0; i < ins.size() && i < inputs.size(); ++i)
    if (inputs[i] && inputs[i]->kind != Value::Kind::None) at[static_cast<size_t>(ins[i])] = inputs[i];
  for (int s : cg.outer_slots()) {
    const Value* v = parent ? parent->lookup(cg.slot_name(s)) : nullptr;
    if (!v) throw Trap("graph " + cg.graph().path + ": '" + cg.slot_name(s) + "' is not defined in an enclosing scope");
    at[static_cast<size_t>(s)] = v;
  }
}

void run_step(Frame& f, int i, const FastKernel* kernel) {
  auto started = f.timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  const Step& step = f.cg.steps()[static_cast<size_t>(i)];
  std::vector<const Value*> in = gather(f, step);
  uint64_t step_seed = mix(f.seed, static_cast<uint64_t>(i));
  if (!kernel) kernel = step.fast.get();
  // Inputs in a blocked layout become plain copies wherever the kernel that runs cannot read them.
  std::vector<FastKernel::Layout> layouts(in.size(), nullptr);
  for (size_t k = 0; k < in.size(); ++k)
    if (step.inputs[k] >= 0) layouts[k] = f.layout[static_cast<size_t>(step.inputs[k])];
  std::deque<Value> plain_copies;  // in[] points into it
  auto make_plain = [&](bool keep_accepted) {
    for (size_t k = 0; k < in.size(); ++k)
      if (layouts[k] && !(keep_accepted && kernel->accepts_layout(k))) {
        plain_copies.emplace_back(layout_to_plain(in[k]->tensor, layouts[k]));
        in[k] = &plain_copies.back();
        layouts[k] = nullptr;
      }
  };
  // A weight the step's own kernel holds (FastKernel::hold_input) as plain values, for anything else.
  auto unhold = [&] {
    for (size_t k = 0; k < in.size(); ++k)
      if (in[k] && in[k]->is_tensor() && in[k]->tensor.is_held()) {
        plain_copies.emplace_back(step.fast->plain_input(k));
        in[k] = &plain_copies.back();
      }
  };
  if (kernel != step.fast.get()) unhold();
  bool taken = step.foldable && take_folded(f, i, step, in);
  bool fast = kernel != nullptr && !taken;
  std::optional<Tensor> view = !taken && step.is_view() ? as_view(f, step, in) : std::nullopt;
  if (view) {
    int s = step.outputs[0];
    f.own[static_cast<size_t>(s)] = Value(std::move(*view));
    f.at[static_cast<size_t>(s)] = &f.own[static_cast<size_t>(s)];
    fast = false;
  }
  std::vector<const Tensor*> tin;
  std::vector<Shape> shapes;
  if (fast) {
    for (const Value* v : in) fast = fast && (!v || v->is_tensor());
    DType t = in[0] ? in[0]->tensor.dtype() : DType::Undefined;
    fast = fast && in[0] &&
           (kernel->any_element_type() || t == DType::Float || (t == DType::Float16 && kernel->takes_float16()));
    if (kernel->any_element_type())  // they copy by element size: strings go to the reference
      for (const Value* v : in) fast = fast && !(v && v->tensor.dtype() == DType::String);
  }
  if (fast) {
    make_plain(true);
    for (const Value* v : in) tin.push_back(v ? &v->tensor : nullptr);
    try {
      shapes = kernel->output_shapes(tin);
    } catch (const Trap&) {
      if (!step.unfused_when_refused) throw;  // the reference reports it
      fast = false;
    }
  }
  if (fast) {
    std::vector<Tensor> outs;
    for (size_t k = 0; k < step.outputs.size(); ++k)
      outs.push_back(step.outputs[k] < 0 ? Tensor(kernel->output_dtype(tin, k), shapes[k])
                                         : allocate_output(f, step.outputs[k], kernel->output_dtype(tin, k), shapes[k],
                                                           kernel->output_bytes(tin, layouts, k)));
    std::vector<Tensor*> ptrs;
    for (auto& t : outs) ptrs.push_back(&t);
    std::vector<FastKernel::Layout> out_layouts;
    kernel->run_with_layouts(tin, layouts, ptrs, out_layouts);
    for (size_t k = 0; k < step.outputs.size(); ++k) {
      int s = step.outputs[k];
      if (s < 0) continue;
      f.own[static_cast<size_t>(s)] = Value(std::move(outs[k]));
      f.at[static_cast<size_t>(s)] = &f.own[static_cast<size_t>(s)];
      f.layout[static_cast<size_t>(s)] = k < out_layouts.size() ? out_layouts[k] : nullptr;
    }
  } else if (!view && !taken) {
    make_plain(false);
    unhold();
    std::vector<Value> out = step.fused.empty()
                                 ? run_reference(f, *step.node, step.version, step.kernel, step.opset, in, step_seed)
                                 : run_chain(f, step, in, step_seed);
    for (size_t k = 0; k < step.outputs.size(); ++k) {
      int s = step.outputs[k];
      if (s < 0 || k >= out.size() || out[k].kind == Value::Kind::None) continue;
      f.own[static_cast<size_t>(s)] = place_output(f, s, std::move(out[k]));
      f.at[static_cast<size_t>(s)] = &f.own[static_cast<size_t>(s)];
    }
  }
  if (f.fold_record && step.foldable) record_folded(f, i, step, in);
  if (f.observer)
    f.observer->step_done(f, i,
                          fast || view ? kernel
                          : taken      ? &folded_marker
                                       : nullptr,
                          f.timed ? std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() : 0.0);
  // Drop what no later step reads (values this frame produced; never graph outputs).
  auto release = [&](int s) {
    auto us = static_cast<size_t>(s);
    if (f.cg.producer(s) < 0 || f.cg.is_output(s)) return;
    f.own[us] = Value();
    f.at[us] = nullptr;
    f.layout[us] = nullptr;
    f.storage[us] = Tensor();
  };
  for (int s : step.outputs)
    if (s >= 0 && f.cg.readers(s).empty()) release(s);
  auto drop_read = [&](int s) {
    if (s >= 0 && --f.readers_left[static_cast<size_t>(s)] == 0) release(s);
  };
  // A slot read twice by this step is counted once in readers(): decrement once per slot.
  std::vector<int> read(step.inputs.begin(), step.inputs.end());
  read.insert(read.end(), step.captures.begin(), step.captures.end());
  std::sort(read.begin(), read.end());
  read.erase(std::unique(read.begin(), read.end()), read.end());
  for (int s : read) drop_read(s);
}

std::vector<Value> run_nested(const CompiledGraph& g, const Frame& parent, const std::vector<Value>& inputs, uint64_t seed) {
  Frame f(g, &parent, seed);
  std::vector<const Value*> in;
  for (const auto& v : inputs) in.push_back(&v);
  f.bind(in);
  for (size_t i = 0; i < g.steps().size(); ++i) run_step(f, static_cast<int>(i));
  std::vector<Value> out;
  for (int s : g.output_slots()) {
    const Value* v = f.at[static_cast<size_t>(s)];
    if (!v) throw Trap("subgraph " + g.graph().path + ": output '" + g.slot_name(s) + "' was never computed");
    out.push_back(*v);
  }
  return out;
}

}  // namespace sonnx

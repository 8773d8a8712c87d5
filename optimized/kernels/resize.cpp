// Float32 Resize in nearest mode as a gather. Nearest is a pure selection: every output element is
// one input element. Which one depends on the many rules of Resize (scales or sizes, axes,
// keep_aspect_ratio_policy, coordinate modes, nearest modes, version differences), and rather than
// restate them, the kernel asks the reference kernel itself: on a double tensor whose elements are
// their own indices (exact up to 2^53), the reference's output is the index map. The map is made
// once per input shape and scales/sizes values, then every run is y[i] = x[map[i]]: bitwise the
// reference's result. tf_crop_and_resize (which extrapolates) and the interpolating modes are left
// to the reference.
#include <map>
#include <mutex>

#include "fast_kernel.h"
#include "onednn_common.h"
#include "reference/ops/registry.h"
#include "reference/ops/support/resample.h"
#include "omp_sync.h"

namespace sonnx::fast {

namespace {

class ResizeNearestKernel final : public FastKernel {
 public:
  const Node* node = nullptr;
  int64_t version = 0;
  const KernelEntry* reference = nullptr;

  std::string name() const override { return "fast:resize"; }

  // The index map for these inputs (x's shape and the values of roi/scales/sizes).
  std::shared_ptr<const std::vector<int64_t>> index_map(const std::vector<const Tensor*>& in, Shape& out_shape) const {
    std::string key = shape_str(in[0]->shape());
    for (size_t i = 1; i < in.size(); ++i) {
      key += in[i] ? shape_str(in[i]->shape()) + std::string(dtype_name(in[i]->dtype())) : "-";
      if (in[i]) key.append(reinterpret_cast<const char*>(in[i]->raw()), in[i]->byte_size());
    }
    std::lock_guard lock(mu_);
    auto it = maps_.find(key);
    if (it == maps_.end()) {
      Tensor iota(DType::Double, in[0]->shape());
      double* p = iota.data<double>();
      for (int64_t i = 0; i < iota.size(); ++i) p[i] = static_cast<double>(i);
      std::vector<Value> values;
      values.reserve(in.size());
      values.emplace_back(std::move(iota));
      for (size_t i = 1; i < in.size(); ++i) values.push_back(in[i] ? Value(*in[i]) : Value());
      std::vector<const Value*> args;
      for (const Value& v : values) args.push_back(v.kind == Value::Kind::None ? nullptr : &v);
      OpContext ctx(*node, version, args, nullptr, nullptr);
      std::vector<Value> result = reference->fn(ctx);  // traps as the reference does
      const Tensor& y = result.at(0).tensor;
      auto map = std::make_shared<std::vector<int64_t>>(static_cast<size_t>(y.size()));
      for (int64_t i = 0; i < y.size(); ++i) (*map)[static_cast<size_t>(i)] = static_cast<int64_t>(y.data<double>()[i]);
      it = maps_.emplace(key, Entry{y.shape(), std::move(map)}).first;
    }
    out_shape = it->second.shape;
    return it->second.map;
  }

  std::vector<Shape> output_shapes(const std::vector<const Tensor*>& in) const override {
    if (!arg(in, 0) || in[0]->dtype() != DType::Float) fail(node->label(), version, "X must be a float tensor");
    Shape s;
    index_map(in, s);
    return {s};
  }

  void run(const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) const override {
    Shape s;
    auto map = index_map(in, s);
    const float* px = in[0]->data<float>();
    float* py = out[0]->data<float>();
    const int64_t* pm = map->data();
    auto n = static_cast<int64_t>(map->size());
    SONNX_OMP_FORK(sync);
#pragma omp parallel for schedule(static) if (n > (1 << 16))
    for (int64_t i = 0; i < n; ++i) {
      SONNX_OMP_TASK(sync);
      py[i] = px[pm[i]];
    }
  }

 private:
  struct Entry {
    Shape shape;
    std::shared_ptr<const std::vector<int64_t>> map;
  };
  mutable std::mutex mu_;
  mutable std::map<std::string, Entry> maps_;
};

}  // namespace

std::unique_ptr<FastKernel> make_resize_kernel(const FastKernelRequest& r) {
  const Node& n = *r.node;
  if (n.outputs.size() != 1 || !input_is_float(r, 0)) return nullptr;
  std::optional<support::ResizeParams> p = try_params<support::ResizeParams>(n, r.version);
  if (!p || p->mode != support::ResizeMode::Nearest || p->coord == support::CoordMode::TfCropAndResize) return nullptr;
  auto k = std::make_unique<ResizeNearestKernel>();
  k->node = &n;
  k->version = r.version;
  k->reference = OpRecords::instance().kernel("", "Resize", r.version);
  if (!k->reference) return nullptr;
  return k;
}

SONNX_FAST_KERNEL("", "Resize", (10, 11, 13, 18, 19), make_resize_kernel);

}  // namespace sonnx::fast

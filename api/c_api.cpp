// The C API (include/sonnx/sonnx.h) over the C++ API: handles own C++ objects, every entry point
// turns exceptions into a status and a thread-local message, so nothing is thrown across C.
#include <cstring>
#include <exception>
#include <new>

#include "sonnx/sonnx.h"
#include "sonnx/sonnx.hpp"

struct sonnx_model {
  sonnx::ModelHandle model;
};
struct sonnx_diagnostics {
  std::vector<sonnx::Diagnostic> list;
};
struct sonnx_session {
  sonnx::Session session;
};
struct sonnx_outputs {
  std::vector<std::string> names;
  std::vector<sonnx::Tensor> tensors;
};

namespace {

thread_local std::string last_error;

sonnx_status fail(sonnx_status status, const std::string& message) {
  last_error = message;
  return status;
}

// Runs `f`, mapping the typed errors of the C++ API to status codes.
template <class F>
sonnx_status guarded(F&& f) {
  try {
    f();
    return SONNX_OK;
  } catch (const sonnx::CheckFailed& e) {
    return fail(SONNX_ERROR_CHECK, std::string(e.what()) + "\n" + e.details());
  } catch (const sonnx::LoadError& e) {
    return fail(SONNX_ERROR_LOAD, e.what());
  } catch (const sonnx::Unsupported& e) {
    return fail(SONNX_ERROR_UNSUPPORTED, e.what());
  } catch (const sonnx::Trap& e) {
    return fail(SONNX_ERROR_TRAP, e.what());
  } catch (const std::bad_alloc&) {
    return fail(SONNX_ERROR_TRAP, "out of memory");
  } catch (const std::exception& e) {
    return fail(SONNX_ERROR_INTERNAL, e.what());
  } catch (...) {
    return fail(SONNX_ERROR_INTERNAL, "unknown exception");
  }
}

sonnx_status null_argument(const char* what) { return fail(SONNX_ERROR_LOAD, std::string(what) + " is NULL"); }

sonnx::Tensor tensor_from_c(const sonnx_named_tensor& t) {
  std::string name = t.name ? t.name : "";
  if (!sonnx::is_valid_dtype(t.elem_type) || t.elem_type == 0 || t.elem_type == static_cast<int32_t>(sonnx::DType::String))
    throw sonnx::LoadError("input '" + name + "': element type " + std::to_string(t.elem_type) + " is not a numeric ONNX type");
  sonnx::DType type = static_cast<sonnx::DType>(t.elem_type);
  if (t.rank > 0 && !t.dims) throw sonnx::LoadError("input '" + name + "': dims is NULL");
  sonnx::Shape shape(t.dims, t.dims + t.rank);
  sonnx::Tensor out(type, shape);  // checks the shape (negative or absurd dimensions throw)
  if (t.byte_size != out.byte_size())
    throw sonnx::LoadError("input '" + name + "': byte_size " + std::to_string(t.byte_size) + ", but " +
                           std::string(sonnx::dtype_name(type)) + sonnx::shape_str(shape) + " takes " +
                           std::to_string(out.byte_size()));
  if (out.byte_size() && !t.data) throw sonnx::LoadError("input '" + name + "': data is NULL");
  if (out.byte_size()) std::memcpy(out.raw(), t.data, out.byte_size());
  return out;
}

}  // namespace

extern "C" {

const char* sonnx_version(void) { return sonnx::version(); }
const char* sonnx_last_error(void) { return last_error.c_str(); }
void sonnx_string_free(char* s) { delete[] s; }

sonnx_status sonnx_model_load(const char* path, sonnx_model** out) {
  if (!path) return null_argument("path");
  if (!out) return null_argument("out");
  return guarded([&] { *out = new sonnx_model{sonnx::load(path)}; });
}

sonnx_status sonnx_model_load_bytes(const void* data, size_t size, sonnx_model** out) {
  if (!data && size) return null_argument("data");
  if (!out) return null_argument("out");
  return guarded([&] { *out = new sonnx_model{sonnx::load_bytes({static_cast<const char*>(data), size})}; });
}

void sonnx_model_free(sonnx_model* model) { delete model; }

sonnx_status sonnx_check(const sonnx_model* model, const char* profile, sonnx_diagnostics** out) {
  if (!model) return null_argument("model");
  if (!out) return null_argument("out");
  return guarded([&] { *out = new sonnx_diagnostics{sonnx::check(model->model, profile ? profile : "onnx")}; });
}

size_t sonnx_diagnostics_count(const sonnx_diagnostics* d) { return d ? d->list.size() : 0; }

size_t sonnx_diagnostics_errors(const sonnx_diagnostics* d) {
  size_t n = 0;
  if (d)
    for (const auto& x : d->list) n += x.severity == sonnx::Severity::Error;
  return n;
}

int sonnx_diagnostics_get(const sonnx_diagnostics* d, size_t i, sonnx_diagnostic* out) {
  if (!d || !out || i >= d->list.size()) return 0;
  const sonnx::Diagnostic& x = d->list[i];
  *out = {x.rule.c_str(),   x.severity == sonnx::Severity::Error,
          x.node.c_str(),   x.op_type.c_str(),
          x.value.c_str(),  x.graph.c_str(),
          x.message.c_str()};
  return 1;
}

void sonnx_diagnostics_free(sonnx_diagnostics* d) { delete d; }

sonnx_status sonnx_session_create(const sonnx_model* model, const char* executor, int threads, sonnx_session** out) {
  if (!model) return null_argument("model");
  if (!out) return null_argument("out");
  return guarded([&] {
    sonnx::SessionOptions options{.executor = executor ? executor : "reference", .threads = threads};
    *out = new sonnx_session{sonnx::Session(model->model, options)};
  });
}

void sonnx_session_free(sonnx_session* session) { delete session; }

sonnx_status sonnx_session_run(sonnx_session* session, const sonnx_named_tensor* inputs, size_t n_inputs, sonnx_outputs** out) {
  if (!session) return null_argument("session");
  if (!out) return null_argument("out");
  if (n_inputs && !inputs) return null_argument("inputs");
  return guarded([&] {
    sonnx::NamedValues feed;
    for (size_t i = 0; i < n_inputs; ++i) {
      if (!inputs[i].name) throw sonnx::LoadError("input " + std::to_string(i) + " has no name");
      if (!feed.emplace(inputs[i].name, tensor_from_c(inputs[i])).second)
        throw sonnx::LoadError(std::string("input '") + inputs[i].name + "' given twice");
    }
    sonnx::NamedValues result = session->session.run(feed);
    auto outputs = std::make_unique<sonnx_outputs>();
    for (auto& [name, value] : result) {
      if (!value.is_tensor() || value.tensor.dtype() == sonnx::DType::String)
        throw sonnx::Unsupported("output '" + name + "' is not a numeric tensor: the C API returns numeric tensors only");
      outputs->names.push_back(name);
      outputs->tensors.push_back(std::move(value.tensor));
    }
    *out = outputs.release();
  });
}

size_t sonnx_outputs_count(const sonnx_outputs* o) { return o ? o->tensors.size() : 0; }

int sonnx_outputs_get(const sonnx_outputs* o, size_t i, sonnx_named_tensor* out) {
  if (!o || !out || i >= o->tensors.size()) return 0;
  const sonnx::Tensor& t = o->tensors[i];
  *out = {o->names[i].c_str(), static_cast<int32_t>(t.dtype()), t.shape().data(), t.shape().size(), t.raw(), t.byte_size()};
  return 1;
}

void sonnx_outputs_free(sonnx_outputs* o) { delete o; }

sonnx_status sonnx_conform(const char* const* dirs, size_t n_dirs, const char* executor, char** report_json) {
  if (n_dirs && !dirs) return null_argument("dirs");
  if (!report_json) return null_argument("report_json");
  return guarded([&] {
    std::vector<std::filesystem::path> roots;
    for (size_t i = 0; i < n_dirs; ++i) {
      if (!dirs[i]) throw sonnx::LoadError("dirs[" + std::to_string(i) + "] is NULL");
      roots.emplace_back(dirs[i]);
    }
    sonnx::ConformReport report = sonnx::conform(roots, {.executor = executor ? executor : "reference"});
    char* text = new char[report.json.size() + 1];
    std::memcpy(text, report.json.c_str(), report.json.size() + 1);
    *report_json = text;
  });
}

}  // extern "C"

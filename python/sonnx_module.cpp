// sonnx._sonnx: the pybind11 extension behind the `sonnx` Python package (python/sonnx/__init__.py
// holds the documented functions and turns paths, bytes and onnx.ModelProto into models). Values
// cross as numpy arrays: inputs are read in place when C-contiguous (else copied once), outputs
// are handed over without a copy (the array owns the tensor). A sequence is a list, a map a dict.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "sonnx/admit.hpp"
#include "sonnx/sonnx.hpp"

namespace py = pybind11;

namespace {

sonnx::DType dtype_of_array(const py::array& a) {
  const py::dtype d = a.dtype();
  const char kind = d.kind();
  const auto size = d.itemsize();
  if (kind == 'b') return sonnx::DType::Bool;
  if (kind == 'f')
    return size == 2   ? sonnx::DType::Float16
           : size == 4 ? sonnx::DType::Float
           : size == 8 ? sonnx::DType::Double
                       : sonnx::DType::Undefined;
  if (kind == 'c') return size == 8 ? sonnx::DType::Complex64 : size == 16 ? sonnx::DType::Complex128 : sonnx::DType::Undefined;
  if (kind == 'i')
    return size == 1   ? sonnx::DType::Int8
           : size == 2 ? sonnx::DType::Int16
           : size == 4 ? sonnx::DType::Int32
           : size == 8 ? sonnx::DType::Int64
                       : sonnx::DType::Undefined;
  if (kind == 'u')
    return size == 1   ? sonnx::DType::UInt8
           : size == 2 ? sonnx::DType::UInt16
           : size == 4 ? sonnx::DType::UInt32
           : size == 8 ? sonnx::DType::UInt64
                       : sonnx::DType::Undefined;
  if (kind == 'U' || kind == 'S' || kind == 'O') return sonnx::DType::String;
  return sonnx::DType::Undefined;
}

// The numpy type of a sonnx element type; the small types (bfloat16, float8, float4, int4, int2)
// have none and are widened to float32 or int8/uint8.
py::dtype numpy_dtype(sonnx::DType t) {
  switch (t) {
    case sonnx::DType::Bool: return py::dtype("bool");
    case sonnx::DType::Float16: return py::dtype("float16");
    case sonnx::DType::Float: return py::dtype("float32");
    case sonnx::DType::Double: return py::dtype("float64");
    case sonnx::DType::Int8: return py::dtype("int8");
    case sonnx::DType::Int16: return py::dtype("int16");
    case sonnx::DType::Int32: return py::dtype("int32");
    case sonnx::DType::Int64: return py::dtype("int64");
    case sonnx::DType::UInt8: return py::dtype("uint8");
    case sonnx::DType::UInt16: return py::dtype("uint16");
    case sonnx::DType::UInt32: return py::dtype("uint32");
    case sonnx::DType::UInt64: return py::dtype("uint64");
    case sonnx::DType::Complex64: return py::dtype("complex64");
    case sonnx::DType::Complex128: return py::dtype("complex128");
    default: return py::dtype("object");
  }
}

sonnx::Tensor tensor_from_array(const std::string& name, py::array a) {
  const sonnx::DType type = dtype_of_array(a);
  if (type == sonnx::DType::Undefined)
    throw sonnx::LoadError("input '" + name + "': numpy dtype " + py::str(a.dtype()).cast<std::string>() +
                           " has no ONNX element type");
  sonnx::Shape shape(a.shape(), a.shape() + a.ndim());
  if (type == sonnx::DType::String) {
    sonnx::Tensor t(type, shape);
    py::list flat = a.attr("ravel")().attr("tolist")();
    std::string* out = t.data<std::string>();
    for (size_t i = 0; i < flat.size(); ++i) {
      py::handle e = flat[i];
      out[i] = py::isinstance<py::bytes>(e) ? e.cast<std::string>() : py::str(e).cast<std::string>();
    }
    return t;
  }
  // Read in place when C-ordered, aligned and in native byte order (else one copy that is).
  // numpy's bool is one byte, as ONNX's.
  if (!a.dtype().attr("isnative").cast<bool>()) a = a.attr("astype")(a.dtype().attr("newbyteorder")("="));
  py::array c = py::array::ensure(a, py::array::c_style);
  if (c && !c.attr("flags").attr("aligned").cast<bool>()) c = py::array::ensure(c.attr("copy")(), py::array::c_style);
  if (!c) throw sonnx::LoadError("input '" + name + "': cannot make a C-ordered copy of the array");
  // The array stays alive while any copy of the tensor does; it is released under the GIL.
  auto* keep = new py::object(c);
  std::shared_ptr<const void> owner(keep, [](const void* p) {
    py::gil_scoped_acquire gil;
    delete static_cast<const py::object*>(p);
  });
  return sonnx::Tensor::shared(type, std::move(shape), static_cast<const std::byte*>(c.data()), std::move(owner));
}

py::object value_to_python(sonnx::Value&& v);

py::object tensor_to_array(sonnx::Tensor&& t) {
  std::vector<py::ssize_t> shape(t.shape().begin(), t.shape().end());
  const sonnx::DType type = t.dtype();
  if (type == sonnx::DType::String) {
    py::array out(py::dtype("object"), shape);
    auto* cells = static_cast<PyObject**>(out.mutable_data());
    const std::string* s = t.data<std::string>();
    for (int64_t i = 0; i < t.size(); ++i) {
      Py_XDECREF(cells[i]);
      cells[i] = py::str(s[i]).release().ptr();
    }
    return out;
  }
  py::dtype dt = numpy_dtype(type);
  if (dt.kind() == 'O') {  // a small type: widened, element by element
    const bool integral = sonnx::is_small_int(type);
    py::array out(py::dtype(integral ? (type == sonnx::DType::UInt4 || type == sonnx::DType::UInt2 ? "uint8" : "int8")
                                     : "float32"),
                  shape);
    for (int64_t i = 0; i < t.size(); ++i) {
      if (integral) {
        if (out.dtype().kind() == 'u') static_cast<uint8_t*>(out.mutable_data())[i] = static_cast<uint8_t>(t.as_int64(i));
        else static_cast<int8_t*>(out.mutable_data())[i] = static_cast<int8_t>(t.as_int64(i));
      } else {
        static_cast<float*>(out.mutable_data())[i] = static_cast<float>(t.as_double(i));
      }
    }
    return out;
  }
  // Zero copy: the array's base owns the tensor. A view of an executor's arena becomes a private
  // copy first; shared bytes (an output that is a weight or an input) are kept alive as they are.
  if (t.is_view()) t = sonnx::Tensor(t);
  auto* owned = new sonnx::Tensor(std::move(t));
  py::capsule base(owned, [](void* p) { delete static_cast<sonnx::Tensor*>(p); });
  py::array out(dt, shape, {}, const_cast<const sonnx::Tensor*>(owned)->raw(), base);
  // Shared bytes may be a model's weights or a caller's input: the array must not write them.
  if (owned->is_shared()) out.attr("flags").attr("writeable") = false;
  return out;
}

// A map as a dict: keys and values as Python scalars (int or str keys; float, int, str or bool
// values), as the arrays' tolist() gives them, in increasing key order.
py::dict map_to_dict(const sonnx::Value& v) {
  py::list keys = tensor_to_array(sonnx::Tensor(v.map_keys())).attr("tolist")();
  py::list values = tensor_to_array(sonnx::Tensor(v.map_values())).attr("tolist")();
  py::dict out;
  for (size_t i = 0; i < keys.size(); ++i) out[keys[i]] = values[i];
  return out;
}

py::object value_to_python(sonnx::Value&& v) {
  if (v.is_tensor()) return tensor_to_array(std::move(v.tensor));
  if (v.is_sequence()) {
    py::list out;
    for (auto& e : v.sequence) out.append(value_to_python(std::move(e)));
    return out;
  }
  if (v.is_optional()) return v.optional ? value_to_python(std::move(*v.optional)) : py::none();
  if (v.is_map()) return map_to_dict(v);
  return py::none();
}

// What a graph input declares, read from its type's spelling (ModelHandle::inputs): the key and
// value element types of a map, alone or inside a sequence or an optional
// ("seq(map(int64,tensor(float)[*]))"), and whether it is a bfloat16 tensor; Undefined where the
// input declares no map.
struct DeclaredMap {
  sonnx::DType key = sonnx::DType::Undefined, value = sonnx::DType::Undefined;
  bool bfloat16 = false;
};
DeclaredMap declared_map(const std::string& type) {
  DeclaredMap d;
  d.bfloat16 = type.rfind("tensor(bfloat16)", 0) == 0;
  const size_t at = type.find("map(");
  const size_t comma = at == std::string::npos ? at : type.find(',', at);
  if (comma == std::string::npos) return d;
  d.key = sonnx::dtype_from_name(type.substr(at + 4, comma - at - 4));
  if (type.compare(comma + 1, 7, "tensor(") == 0) {
    const size_t close = type.find(')', comma + 8);
    if (close != std::string::npos) d.value = sonnx::dtype_from_name(type.substr(comma + 8, close - comma - 8));
  }
  return d;
}

// The keys or the values of a dict as an array: what numpy makes of them (int64, float64, str),
// taken to the declared element type where they are numbers that keep their kind (integers to an
// integer type, where each fits; integers and floats to a float type, rounded to nearest). Python's
// numbers have no width, so {1: 0.5} fits a declared map(int64, float). Anything else stays as it
// is, for the run to refuse ("no implicit type conversion"). An empty list takes the declared type,
// else `empty_type`.
py::array map_items_array(const std::string& name, const py::list& items, sonnx::DType declared, const char* empty_type) {
  py::module_ np = py::module_::import("numpy");
  if (items.empty())
    return np.attr("asarray")(items, declared != sonnx::DType::Undefined ? numpy_dtype(declared) : py::dtype(empty_type));
  py::array natural = np.attr("asarray")(items);
  if (declared == sonnx::DType::Undefined || declared == sonnx::DType::String) return natural;
  const char kind = natural.dtype().kind();
  const bool integers = kind == 'i' || kind == 'u';
  if (sonnx::is_integer(declared) && integers) {
    py::array converted = natural.attr("astype")(numpy_dtype(declared));
    if (!np.attr("array_equal")(converted, natural).cast<bool>())
      throw sonnx::LoadError("input '" + name + "': a key or value does not fit the declared " +
                             std::string(sonnx::dtype_name(declared)));
    return converted;
  }
  if (sonnx::is_float(declared) && (integers || kind == 'f') && numpy_dtype(declared).kind() == 'f')
    return natural.attr("astype")(numpy_dtype(declared));
  return natural;
}

// A dict as a map, its keys and values typed as map_items_array says.
sonnx::Value map_from_dict(const std::string& name, const py::dict& d, const DeclaredMap& declared) {
  py::list keys, values;
  for (auto [k, v] : d) {
    keys.append(k);
    values.append(v);
  }
  sonnx::Tensor key_tensor = tensor_from_array(name, map_items_array(name, keys, declared.key, "int64"));
  sonnx::Tensor value_tensor = tensor_from_array(name, map_items_array(name, values, declared.value, "float32"));
  try {
    return sonnx::Value::make_map(std::move(key_tensor), std::move(value_tensor));
  } catch (const sonnx::Trap& e) {
    throw sonnx::LoadError("input '" + name + "': " + e.what());
  }
}

// A declared bfloat16 input: numpy has no bfloat16, so it takes float32 values (rounded to nearest
// even, as Cast does: exact for values bfloat16 holds) or uint16 arrays of the bits (the form
// onnx's numpy_helper used before it had a bfloat16 type). Other arrays are left as they are, for
// the run to refuse.
sonnx::Tensor bfloat16_from_array(const std::string& name, py::array a) {
  const char kind = a.dtype().kind();
  const auto size = a.dtype().itemsize();
  if (!((kind == 'f' && size == 4) || (kind == 'u' && size == 2))) return tensor_from_array(name, a);
  sonnx::Tensor source = tensor_from_array(name, a);
  sonnx::Tensor t(sonnx::DType::BFloat16, source.shape());
  auto* out = t.data<sonnx::bfloat16_t>();
  for (int64_t i = 0; i < t.size(); ++i) {
    if (kind == 'f') out[i] = sonnx::bfloat16_t(source.data<float>()[i]);
    else out[i].bits = source.data<uint16_t>()[i];
  }
  return t;
}

sonnx::Value value_from_python(const std::string& name, py::handle h, const DeclaredMap& declared) {
  if (h.is_none()) return sonnx::Value::make_optional(std::nullopt);  // as value_to_python gives it
  if (py::isinstance<py::list>(h) || py::isinstance<py::tuple>(h)) {
    std::vector<sonnx::Value> elems;
    for (py::handle e : h) elems.push_back(value_from_python(name, e, declared));
    return sonnx::Value::make_sequence(std::move(elems));
  }
  if (py::isinstance<py::dict>(h)) return map_from_dict(name, py::reinterpret_borrow<py::dict>(h), declared);
  py::array a = py::array::ensure(h);
  if (declared.bfloat16 && a) return sonnx::Value(bfloat16_from_array(name, a));
  return sonnx::Value(tensor_from_array(name, a));
}

// The inputs given as {name: array, list, dict}; `model` (null: none) declares the maps' types.
sonnx::NamedValues feed_from_dict(const py::dict& inputs, const sonnx::ModelHandle* model = nullptr) {
  std::map<std::string, std::string> declared;
  if (model)
    for (const auto& [name, type] : model->inputs()) declared[name] = type;
  sonnx::NamedValues feed;
  for (auto [k, v] : inputs) {
    std::string name = py::str(k);
    if (!v.is_none() && !py::isinstance<py::array>(v) && !py::isinstance<py::list>(v) && !py::isinstance<py::tuple>(v) &&
        !py::isinstance<py::dict>(v) && !py::isinstance<py::float_>(v) && !py::isinstance<py::int_>(v) &&
        !py::isinstance<py::bool_>(v) && !py::hasattr(v, "__array__"))
      throw sonnx::LoadError("input '" + name + "': expected a numpy array, a list, a dict or None, not " +
                             py::str(py::type::of(v).attr("__name__")).cast<std::string>());
    auto it = declared.find(name);
    feed.emplace(name, value_from_python(name, v, it == declared.end() ? DeclaredMap{} : declared_map(it->second)));
  }
  return feed;
}

py::dict outputs_to_dict(sonnx::NamedValues&& out) {
  py::dict d;
  for (auto& [name, v] : out) d[py::str(name)] = value_to_python(std::move(v));
  return d;
}

}  // namespace

PYBIND11_MODULE(_sonnx, m) {
  m.doc() = "The extension module behind the sonnx package (use `import sonnx`).";
  m.attr("__version__") = sonnx::version();

  // Exceptions: sonnx.Error and one subclass per typed error of the C++ API; CheckFailed carries the
  // validator's findings in .diagnostics. A C++ std::invalid_argument is a LoadError (a bad argument).
  static py::exception<std::runtime_error> error(m, "Error");
  static py::exception<sonnx::LoadError> load_error(m, "LoadError", error.ptr());
  static py::exception<sonnx::CheckFailed> check_failed(m, "CheckFailed", error.ptr());
  static py::exception<sonnx::Unsupported> unsupported(m, "Unsupported", error.ptr());
  static py::exception<sonnx::Trap> trap(m, "Trap", error.ptr());
  static py::exception<sonnx::Undetermined> undetermined(m, "Undetermined", error.ptr());
  static py::exception<sonnx::InternalError> internal(m, "InternalError", error.ptr());

  py::enum_<sonnx::Severity>(m, "Severity").value("error", sonnx::Severity::Error).value("warning", sonnx::Severity::Warning);
  py::class_<sonnx::Diagnostic>(m, "Diagnostic",
                                "A validation finding: rule ID, severity and where (node, op_type, value, graph).")
      .def_readonly("rule", &sonnx::Diagnostic::rule)
      .def_property_readonly("severity",
                             [](const sonnx::Diagnostic& d) { return std::string(sonnx::severity_name(d.severity)); })
      .def_readonly("node", &sonnx::Diagnostic::node)
      .def_readonly("op_type", &sonnx::Diagnostic::op_type)
      .def_readonly("value", &sonnx::Diagnostic::value)
      .def_readonly("graph", &sonnx::Diagnostic::graph)
      .def_readonly("message", &sonnx::Diagnostic::message)
      .def("as_dict",
           [](const sonnx::Diagnostic& d) {
             py::dict j;
             j["rule"] = d.rule;
             j["severity"] = sonnx::severity_name(d.severity);
             j["node"] = d.node;
             j["op_type"] = d.op_type;
             j["value"] = d.value;
             j["graph"] = d.graph;
             j["message"] = d.message;
             return j;
           })
      .def("__str__", &sonnx::format_diagnostic)
      .def("__repr__", [](const sonnx::Diagnostic& d) { return "<sonnx.Diagnostic " + sonnx::format_diagnostic(d) + ">"; });

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const sonnx::CheckFailed& e) {
      py::object exc = py::reinterpret_borrow<py::object>(check_failed.ptr())(std::string(e.what()) + "\n" + e.details());
      exc.attr("diagnostics") = py::cast(e.diagnostics());
      PyErr_SetObject(check_failed.ptr(), exc.ptr());
    } catch (const sonnx::LoadError& e) {
      load_error(e.what());
    } catch (const std::invalid_argument& e) {
      load_error(e.what());
    } catch (const sonnx::Unsupported& e) {
      unsupported(e.what());
    } catch (const sonnx::Trap& e) {
      trap(e.what());
    } catch (const sonnx::Undetermined& e) {
      undetermined(e.what());
    } catch (const sonnx::InternalError& e) {
      internal(e.what());
    }
  });

  py::class_<sonnx::ModelHandle>(m, "Model", "A loaded ONNX model (sonnx.load).")
      .def_property_readonly("name", &sonnx::ModelHandle::name)
      .def_property_readonly("ir_version", &sonnx::ModelHandle::ir_version)
      .def_property_readonly("opset_imports", &sonnx::ModelHandle::opset_imports)
      .def_property_readonly("inputs", &sonnx::ModelHandle::inputs, "[(name, type)] of the inputs a run must give")
      .def_property_readonly("outputs", &sonnx::ModelHandle::outputs, "[(name, type)] of the graph's outputs")
      .def("__repr__", [](const sonnx::ModelHandle& h) { return "<sonnx.Model " + h.name() + ">"; });

  m.def(
      "load_file", [](const std::filesystem::path& p) { return sonnx::load(p); }, py::arg("path"));
  m.def(
      "load_bytes",
      [](const py::bytes& b, const std::string& name, const std::filesystem::path& base_dir) {
        std::string_view view = b;
        return sonnx::load_bytes(view, name, base_dir);
      },
      py::arg("data"), py::arg("name") = "model", py::arg("base_dir") = std::filesystem::path());
  m.def("check", &sonnx::check, py::arg("model"), py::arg("profile") = "onnx", py::call_guard<py::gil_scoped_release>());
  m.def("executors", &sonnx::executors);

  py::class_<sonnx::Session>(m, "Session")
      .def(py::init([](const sonnx::ModelHandle& model, const std::string& executor, int threads, bool check,
                       const std::string& profile, uint64_t seed, const std::vector<std::string>& devices,
                       const std::vector<std::string>& plugins, const std::string& assign) {
             sonnx::SessionOptions o{.executor = executor,
                                     .threads = threads,
                                     .check = check,
                                     .profile = profile,
                                     .seed = seed,
                                     .verify_arena_run = false,
                                     .devices = devices,
                                     .plugins = plugins,
                                     .assign = assign};
             py::gil_scoped_release release;
             return sonnx::Session(model, o);
           }),
           py::arg("model"), py::arg("executor") = "reference", py::arg("threads") = 1, py::arg("check") = true,
           py::arg("profile") = "onnx", py::arg("seed") = 0, py::arg("devices") = std::vector<std::string>{},
           py::arg("plugins") = std::vector<std::string>{}, py::arg("assign") = "first")
      .def(
          "run",
          [](const sonnx::Session& s, const py::dict& inputs, const py::object& model) {
            // The model, when given, declares the types of the maps among the inputs.
            const auto* handle = model.is_none() ? nullptr : &model.cast<const sonnx::ModelHandle&>();
            sonnx::NamedValues feed = feed_from_dict(inputs, handle);
            sonnx::NamedValues out;
            {
              py::gil_scoped_release release;
              out = s.run(feed);
            }
            feed.clear();  // under the GIL: the input arrays are released here
            return outputs_to_dict(std::move(out));
          },
          py::arg("inputs"), py::arg("model") = py::none())
      .def_property_readonly("executor", [](const sonnx::Session& s) { return s.options().executor; })
      .def_property_readonly("threads", [](const sonnx::Session& s) { return s.options().threads; });

  m.def(
      "enclosures",
      [](const sonnx::ModelHandle& model, const py::dict& inputs, const std::string& semantics, bool check) {
        sonnx::NamedValues feed = feed_from_dict(inputs, &model);
        std::map<std::string, sonnx::OutputEnclosure> bounds;
        {
          py::gil_scoped_release release;
          bounds = sonnx::enclosures(model, feed, semantics, check);
        }
        feed.clear();
        py::dict out;
        for (auto& [name, b] : bounds)
          out[py::str(name)] = py::make_tuple(tensor_to_array(std::move(b.lower)), tensor_to_array(std::move(b.upper)));
        return out;
      },
      py::arg("model"), py::arg("inputs"), py::arg("semantics") = "real", py::arg("check") = true);

  py::class_<sonnx::Admission>(m, "Admission",
                               "The outcome of sonnx.admit: whether the model was brought into the profile, "
                               "what changed, the comparison runs and the admitted model's bytes.")
      .def_readonly("admitted", &sonnx::Admission::admitted)
      .def_readonly("unchanged", &sonnx::Admission::unchanged)
      .def_readonly("opset_from", &sonnx::Admission::opset_from)
      .def_readonly("opset_to", &sonnx::Admission::opset_to)
      .def_readonly("errors_before", &sonnx::Admission::errors_before)
      .def_readonly("errors_after", &sonnx::Admission::errors_after)
      .def_readonly("rewrites", &sonnx::Admission::rewrites)
      .def_readonly("runs", &sonnx::Admission::runs)
      .def_readonly("runs_equal", &sonnx::Admission::runs_equal)
      .def_readonly("reasons", &sonnx::Admission::reasons)
      .def_readonly("seconds", &sonnx::Admission::seconds)
      .def_property_readonly("model_bytes", [](const sonnx::Admission& a) { return py::bytes(a.model_bytes); })
      .def_readonly("report_json", &sonnx::Admission::report_json)
      .def_readonly("report_markdown", &sonnx::Admission::report_markdown)
      .def(
          "save",
          [](const sonnx::Admission& a, const py::object& path) {
            if (!a.admitted) throw py::value_error("the model was not admitted: nothing to save");
            if (a.unchanged)
              throw py::value_error("the model is in the profile already: it is its own admitted form, nothing to save");
            // Python's open: a str or os.PathLike, and an OSError that names the file.
            py::object f = py::module_::import("io").attr("open")(path, "wb");
            try {
              f.attr("write")(py::bytes(a.model_bytes));
            } catch (...) {
              f.attr("close")();
              throw;
            }
            f.attr("close")();
          },
          py::arg("path"))
      .def("__repr__", [](const sonnx::Admission& a) {
        return std::string("<sonnx.Admission ") +
               (a.unchanged  ? "unchanged"
                : a.admitted ? "admitted"
                             : "not admitted") +
               ", opset " + std::to_string(a.opset_from) + " -> " + std::to_string(a.opset_to) + ", " +
               std::to_string(a.runs_equal) + " of " + std::to_string(a.runs) + " runs equal>";
      });

  m.def(
      "admit",
      [](const sonnx::ModelHandle& model, const std::string& profile, const std::map<std::string, int64_t>& dims,
         const std::map<std::string, std::vector<int64_t>>& input_shapes, const py::dict& fixed, const py::dict& inputs,
         int samples, uint64_t seed, bool expose_unused) {
        sonnx::AdmitOptions o;
        o.expose_unused = expose_unused;
        o.profile = profile;
        o.dims = dims;
        o.input_shapes = input_shapes;
        o.fixed = feed_from_dict(fixed, &model);
        o.inputs = feed_from_dict(inputs, &model);
        o.samples = samples;
        o.seed = seed;
        sonnx::Admission a;
        {
          py::gil_scoped_release release;
          a = sonnx::admit_model(model, o);
        }
        o.fixed.clear();  // under the GIL: the arrays are released here
        o.inputs.clear();
        return a;
      },
      py::arg("model"), py::arg("profile") = "sonnx", py::arg("dims") = std::map<std::string, int64_t>{},
      py::arg("input_shapes") = std::map<std::string, std::vector<int64_t>>{}, py::arg("fixed") = py::dict(),
      py::arg("inputs") = py::dict(), py::arg("samples") = 3, py::arg("seed") = 1, py::arg("expose_unused") = false);
  m.def("admit_suggestion", &sonnx::admit_suggestion, py::arg("model"), py::arg("diagnostics"), py::arg("profile") = "sonnx",
        py::call_guard<py::gil_scoped_release>());

  m.def(
      "conform",
      [](const std::vector<std::filesystem::path>& dirs, const std::string& executor, int threads, const std::string& filter,
         const std::string& judge, bool isolate, double timeout, bool check, bool progress) {
        sonnx::ConformOptions o{.executor = executor,
                                .threads = threads,
                                .filter = filter,
                                .judge = judge,
                                .isolate = isolate,
                                .timeout_seconds = timeout,
                                .check = check,
                                .progress = progress};
        py::gil_scoped_release release;
        return sonnx::conform(dirs, o).json;
      },
      py::arg("dirs"), py::arg("executor") = "reference", py::arg("threads") = 2, py::arg("filter") = "",
      py::arg("judge") = "tolerance", py::arg("isolate") = true, py::arg("timeout") = 120.0, py::arg("check") = true,
      py::arg("progress") = false);
}

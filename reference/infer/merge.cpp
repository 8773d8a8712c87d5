#include "merge.h"

namespace sonnx {

namespace {
bool has_info(const TypeInfo& t) { return t.kind != TypeInfo::Kind::Unknown; }
}  // namespace

TypeInfo merge_types(const TypeInfo& inferred, const TypeInfo& declared, std::string& conflict) {
  if (!has_info(declared)) return inferred;
  if (!has_info(inferred)) return declared;
  if (inferred.kind != declared.kind) {
    conflict = "inferred " + inferred.str() + " but declared " + declared.str();
    return inferred;
  }
  TypeInfo out = inferred;
  switch (inferred.kind) {
    case TypeInfo::Kind::Tensor:
    case TypeInfo::Kind::SparseTensor: {
      if (inferred.elem != DType::Undefined && declared.elem != DType::Undefined && inferred.elem != declared.elem) {
        conflict = "inferred element type " + std::string(dtype_name(inferred.elem)) + " but declared " +
                   std::string(dtype_name(declared.elem));
        return inferred;
      }
      if (out.elem == DType::Undefined) out.elem = declared.elem;
      if (!declared.shape) return out;
      if (!inferred.shape) {
        out.shape = declared.shape;
        return out;
      }
      if (inferred.shape->size() != declared.shape->size()) {
        conflict = "inferred rank " + std::to_string(inferred.shape->size()) + " (" + inferred.str() + ") but declared rank " +
                   std::to_string(declared.shape->size()) + " (" + declared.str() + ")";
        return inferred;
      }
      for (size_t i = 0; i < out.shape->size(); ++i) {
        Dim& d = (*out.shape)[i];
        const Dim& e = (*declared.shape)[i];
        if (d.value && e.value && *d.value != *e.value) {
          conflict = "inferred " + inferred.str() + " but declared " + declared.str() + " (dimension " + std::to_string(i) + ")";
          return inferred;
        }
        if (!d.value && e.value) d = e;
        else if (!d.value && d.param.empty()) d.param = e.param;
      }
      return out;
    }
    case TypeInfo::Kind::Map:
      if (inferred.map_key != DType::Undefined && declared.map_key != DType::Undefined && inferred.map_key != declared.map_key) {
        conflict = "inferred " + inferred.str() + " but declared " + declared.str() + " (key type)";
        return inferred;
      }
      if (out.map_key == DType::Undefined) out.map_key = declared.map_key;
      [[fallthrough]];  // the value type merges as a sequence's element type does
    case TypeInfo::Kind::Sequence:
    case TypeInfo::Kind::Optional: {
      if (!declared.inner) return out;
      if (!inferred.inner) {
        out.inner = declared.inner;
        return out;
      }
      out.inner = std::make_shared<TypeInfo>(merge_types(*inferred.inner, *declared.inner, conflict));
      return out;
    }
    case TypeInfo::Kind::Unknown: return out;
  }
  return out;
}

}  // namespace sonnx

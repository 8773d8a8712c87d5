// The kinds of failure sonnx distinguishes (docs/design.md §2.4). Validation problems are not
// exceptions: they are Diagnostics (reference/check). These are for everything else.
#pragma once
#include <stdexcept>
#include <string>

// Everything this header declares is the library's public API: exported from libsonnx.so, whose
// other symbols are hidden (api/CMakeLists.txt).
#pragma GCC visibility push(default)
namespace sonnx {

// The input cannot be read: missing file, malformed protobuf, hostile external-data path. Exit 2.
struct LoadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The model uses something this build does not implement (an operator version, a type). Exit 1.
struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A run-time trap: the model is well formed but this execution is not defined (index out of range,
// shapes incompatible at run time). The message names the node, op and version.
struct Trap : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The bounds of a guaranteed enclosure leave an integer, a comparison or a shape of the model open
// at this input: the enclosures do not decide it (not an operator without an enclosure, so no
// Unsupported). Exit 1.
struct Undetermined : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A bug in sonnx: something that cannot happen on a validated graph.
struct InternalError : std::logic_error {
  using std::logic_error::logic_error;
};

}  // namespace sonnx
#pragma GCC visibility pop

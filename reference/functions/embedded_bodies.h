// The body files of spec/functions/, linked into the library as bytes by a source file CMake
// generates (reference/CMakeLists.txt): nothing is read at run time.
#pragma once
#include <cstddef>

namespace sonnx::functions {

struct EmbeddedBody {
  const char* file;  // "Softmax-13.onnxtxt"
  const char* begin;
  const char* end;
};

extern const EmbeddedBody kEmbeddedBodies[];
extern const std::size_t kEmbeddedBodyCount;

}  // namespace sonnx::functions

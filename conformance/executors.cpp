#include "executors.h"

#include "reference/model/errors.h"

namespace sonnx {

std::vector<std::string> executor_names() { return {"reference"}; }

ExecuteFn make_executor(const std::string& name) {
  if (name == "reference")
    return [](const Model& m, const NamedValues& in) {
      Interpreter interp(m);
      return interp.run(in);
    };
  throw LoadError("unknown executor '" + name + "'");
}

}  // namespace sonnx

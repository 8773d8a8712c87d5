// Shared by the API's entry points that run a model: validate it and refuse it (CheckFailed) when
// the validator reports an error, as prepare_model does for the CLI.
#pragma once
#include <string>

#include "sonnx/sonnx.hpp"

namespace sonnx {

void refuse_invalid(const ModelHandle& model, const std::string& profile);

}  // namespace sonnx

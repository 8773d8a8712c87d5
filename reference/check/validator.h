// The validator: runs every rule the profile enables and returns all findings (not just the first).
#pragma once
#include <vector>

#include "sonnx/diagnostic.h"
#include "profile.h"
#include "reference/model/loader.h"

namespace sonnx {

std::vector<Diagnostic> validate(const LoadedModel& model, const Profile& profile);

}  // namespace sonnx

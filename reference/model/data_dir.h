// Where sonnx's data files are (spec/profiles/*.json, conformance/skips.txt and tolerances.txt,
// conformance/data/ scripts): SONNX_DATA_DIR if set; else the installed share/sonnx beside the
// library this code runs from (found relative to it, so an installed tree may be moved); else the
// source tree sonnx was built from.
#pragma once
#include <filesystem>

namespace sonnx {

std::filesystem::path data_dir();

}  // namespace sonnx

// Compatibility only: this header was renamed names.h (what a graph defines and captures; the
// values bound at run time are the interpreter's ValueScope). Include "names.h" instead; this
// file goes once reference/check/{graph_walk,structure,sonnx_graph}.cpp include names.h.
#pragma once
#include "names.h"

/* The sonnx C API: the essentials of the C++ API (sonnx.hpp) behind opaque handles and status
 * codes, for C programs and foreign-function interfaces (ctypes, cffi, Rust, Go, ...).
 *
 *   sonnx_model* model;
 *   if (sonnx_model_load("model.onnx", &model) != SONNX_OK) { puts(sonnx_last_error()); return 1; }
 *   sonnx_diagnostics* found;
 *   sonnx_check(model, "sonnx", &found);
 *   printf("%zu findings\n", sonnx_diagnostics_count(found));
 *
 * Every function that can fail returns a sonnx_status; on failure, sonnx_last_error() gives the
 * message (thread-local, valid until the next failing call on the same thread). Every handle a
 * function hands out is released with its _free function; freeing NULL does nothing. Strings and
 * buffers reached through a handle stay valid while that handle lives. Element types are ONNX
 * TensorProto.DataType numbers (SONNX_FLOAT, ... in backend.h). Link with -lsonnx.
 */
#ifndef SONNX_H
#define SONNX_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h" /* element type numbers */

/* The functions below are the library's C API, exported from libsonnx.so (its other symbols are
 * hidden). */
#pragma GCC visibility push(default)
#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  SONNX_OK = 0,
  SONNX_ERROR_LOAD = 1,        /* unreadable model or input, bad argument (the CLI's exit 2) */
  SONNX_ERROR_CHECK = 2,       /* the validator refused the model a session was to compile */
  SONNX_ERROR_UNSUPPORTED = 3, /* an operator version or type this build does not run */
  SONNX_ERROR_TRAP = 4,        /* the execution is undefined: wrong input, index out of range, ... */
  SONNX_ERROR_INTERNAL = 5     /* a bug in sonnx */
} sonnx_status;

typedef struct sonnx_model sonnx_model;
typedef struct sonnx_diagnostics sonnx_diagnostics;
typedef struct sonnx_session sonnx_session;
typedef struct sonnx_outputs sonnx_outputs;

/* "0.1.0". */
const char* sonnx_version(void);
/* The message of the last call that failed on this thread ("" if none). */
const char* sonnx_last_error(void);
/* A string the library allocated (sonnx_conform's report). */
void sonnx_string_free(char* s);

/* Loading: a .onnx or .onnxtxt file, or a serialized ModelProto in memory. */
sonnx_status sonnx_model_load(const char* path, sonnx_model** out);
sonnx_status sonnx_model_load_bytes(const void* data, size_t size, sonnx_model** out);
void sonnx_model_free(sonnx_model* model);

/* Checking against a profile ("onnx", "sonnx" or a profile JSON file). */
typedef struct {
  const char* rule; /* stable rule ID (spec/restrictions.md) */
  int is_error;     /* 1 error, 0 warning */
  const char* node; /* "" for graph-level findings */
  const char* op_type;
  const char* value;
  const char* graph; /* "main", "main/loop:body", "function dom.f" */
  const char* message;
} sonnx_diagnostic;

sonnx_status sonnx_check(const sonnx_model* model, const char* profile, sonnx_diagnostics** out);
size_t sonnx_diagnostics_count(const sonnx_diagnostics* d);
size_t sonnx_diagnostics_errors(const sonnx_diagnostics* d); /* how many are errors: 0 = accepted */
/* Finding i (< count); returns 0 when i is out of range. */
int sonnx_diagnostics_get(const sonnx_diagnostics* d, size_t i, sonnx_diagnostic* out);
void sonnx_diagnostics_free(sonnx_diagnostics* d);

/* Sessions: checked (profile onnx) and compiled once, then run many times, from several threads
 * at once. executor: "reference", "linear", "dataflow" or "parallel"; threads >= 1. */
sonnx_status sonnx_session_create(const sonnx_model* model, const char* executor, int threads, sonnx_session** out);
void sonnx_session_free(sonnx_session* session);

/* A dense row-major tensor crossing the boundary (not strings). For inputs the caller owns
 * dims and data for the duration of the call. */
typedef struct {
  const char* name;
  int32_t elem_type;
  const int64_t* dims;
  size_t rank;
  const void* data;
  size_t byte_size; /* element count times the element size */
} sonnx_named_tensor;

/* Runs the session; every graph output must be a non-string tensor (SONNX_ERROR_UNSUPPORTED
 * otherwise). */
sonnx_status sonnx_session_run(sonnx_session* session, const sonnx_named_tensor* inputs, size_t n_inputs, sonnx_outputs** out);
size_t sonnx_outputs_count(const sonnx_outputs* o);
/* Output i (< count), the outputs sorted by name; returns 0 when i is out of range. */
int sonnx_outputs_get(const sonnx_outputs* o, size_t i, sonnx_named_tensor* out);
void sonnx_outputs_free(sonnx_outputs* o);

/* Runs conformance test directories (model.onnx + test_data_set_N, or folders of them) with an
 * executor; *report_json receives the report (as `sonnx conform --format json`), to be released
 * with sonnx_string_free. Returns SONNX_OK whenever the run happened, whatever its results. */
sonnx_status sonnx_conform(const char* const* dirs, size_t n_dirs, const char* executor, char** report_json);

#ifdef __cplusplus
}
#endif
#pragma GCC visibility pop

#endif /* SONNX_H */

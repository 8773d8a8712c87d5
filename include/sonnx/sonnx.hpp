// The sonnx C++ API: load an ONNX model, check it against a profile, run it (the reference
// interpreter or an optimized executor), run conformance suites and certify backends.
//
//   #include <sonnx/sonnx.hpp>
//   sonnx::ModelHandle model = sonnx::load("model.onnx");
//   for (const sonnx::Diagnostic& d : sonnx::check(model, "sonnx")) std::cout << d.message << "\n";
//   sonnx::Session session(model, {.executor = "linear"});
//   sonnx::NamedValues out = session.run({{"x", sonnx::Tensor::from_vector<float>({1, 3}, {1, 2, 3})}});
//
// Errors (docs/design.md §2.4, errors.h): LoadError (unreadable model or input, bad argument),
// CheckFailed (the validator refused the model a Session was asked to compile), Unsupported (an
// operator version or type this build does not run), Trap (this execution is undefined: an index
// out of range, an input of the wrong type or shape), InternalError (a bug in sonnx). All derive
// from std::exception; what() is one line naming the rule or cause, then where.
//
// Link with the CMake target sonnx::sonnx (find_package(sonnx CONFIG)) or `pkg-config sonnx`.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "diagnostic.h"
#include "errors.h"
#include "tensor.h"
#include "value.h"

// Everything this header declares is the library's public API: exported from libsonnx.so, whose
// other symbols are hidden (api/CMakeLists.txt).
#pragma GCC visibility push(default)
namespace sonnx {

struct LoadedModel;  // the loaded IR (internal)

// "0.1.0": the library's version (the CLI's `sonnx --version`).
const char* version();
// Where sonnx's data files are (profiles, skip and tolerance lists, the suite generator):
// SONNX_DATA_DIR if set, else the installed share/sonnx beside this library, else the source tree
// it was built from. `sonnx --version` prints it: which installation this is.
std::filesystem::path data_directory();

// A loaded model: parsed once, shared by every check, session and copy (copies are cheap).
class ModelHandle {
 public:
  const std::string& name() const;  // the file it came from, or the name given to load_bytes
  int64_t ir_version() const;
  std::map<std::string, int64_t> opset_imports() const;  // domain ("" = ai.onnx) -> version
  // The graph's inputs that must be given (not those with an initializer), and its outputs, with
  // their declared types ("tensor(float)[1,3,?]").
  std::vector<std::pair<std::string, std::string>> inputs() const;
  std::vector<std::pair<std::string, std::string>> outputs() const;

  explicit ModelHandle(std::shared_ptr<const LoadedModel> impl);
  const LoadedModel& impl() const { return *impl_; }

 private:
  std::shared_ptr<const LoadedModel> impl_;
  std::string name_;
};

// Reads a model file: binary .onnx (external data resolved next to it) or .onnxtxt text syntax.
// Throws LoadError with a one-line reason.
ModelHandle load(const std::filesystem::path& file);
// Parses a serialized ModelProto held in memory. External data, if any, is resolved against
// `base_dir` (empty: the model may have none). Throws LoadError.
ModelHandle load_bytes(std::string_view bytes, const std::string& name = "model", const std::filesystem::path& base_dir = {});

// Validates the model against the graph rules and a profile: "onnx", "sonnx" or a profile JSON
// file. Returns every finding (errors and warnings), in the validator's order; has_errors (in
// diagnostic.h) says whether the model is refused. Throws LoadError for an unknown profile.
std::vector<Diagnostic> check(const ModelHandle& model, const std::string& profile = "onnx");

// A validator rule (spec/restrictions.md): its ID, its own severity (a profile may override it)
// and one line saying what it requires.
struct RuleSummary {
  std::string id;
  Severity severity = Severity::Error;
  std::string summary;
};
struct ProfileRules {
  std::string name;                // the profile's own name (a file's "name")
  std::vector<RuleSummary> rules;  // the rules it enables, in the order the validator runs them
};
// The rules of a profile as check takes it. Throws LoadError for an unknown profile.
ProfileRules profile_rules(const std::string& profile = "onnx");

struct SessionOptions {
  std::string executor = "reference";  // reference (the interpreter), linear, dataflow, parallel
  int threads = 1;                     // per kernel (linear, dataflow) or workers (parallel)
  bool check = true;                   // validate first and refuse a model with errors (CheckFailed)
  std::string profile = "onnx";        // the profile `check` uses
  uint64_t seed = 0;                   // random operators (RandomNormal, Dropout in training, ...)
  // Optimized executors: the first run of each input shape is repeated in the planned memory arena
  // and must give the same bits (else InternalError). Costs a second run per new shape.
  bool verify_arena_run = false;
  // Compile for exactly this device set (names `sonnx devices` lists, or plugin paths) instead of
  // one executor: each node on a device of the set, consecutive nodes on one device one step, cpu
  // the fallback only when it is in the set (else a node no device runs is Unsupported, naming
  // every such node). Empty: the executor runs the whole model. Plugins add devices beside
  // SONNX_PLUGIN_PATH. assign: "first" (the first device of the set that runs each node) or
  // "profile" (each node measured on every device on synthetic inputs, then placed to shorten the
  // critical path, copies included; the measurements are cached per model and machine).
  std::vector<std::string> devices{};
  std::vector<std::string> plugins{};
  std::string assign = "first";
};

// Runs a task somewhere (the application's thread pool); must eventually run every task it is given.
using TaskLauncher = std::function<void(std::function<void()>)>;

// A model compiled once for one executor, then run any number of times, from any number of
// threads at once. Each concurrent run uses an executor instance of its own, made on first need
// from the one compiled model (weights are shared, never copied). A session does not keep the
// ModelHandle: what it runs lives in the compiled model.
class Session {
 public:
  // Checks (unless options.check is false) and compiles. Throws LoadError (unknown executor or
  // profile), CheckFailed or Unsupported.
  explicit Session(const ModelHandle& model, SessionOptions options = {});
  ~Session();
  Session(Session&&) noexcept;
  Session& operator=(Session&&) noexcept;

  // Runs the model: inputs by name (an input with an initializer may be left out); returns every
  // graph output by name. Throws Trap (wrong input name, type or shape; an undefined execution).
  NamedValues run(const NamedValues& inputs) const;
  // Like run, but work that can proceed beside the calling thread goes to `launcher` instead of
  // the executor's own threads (PyTorch Static Runtime's runAsync). The graph runs on the calling
  // thread. With the parallel executor, steps that become ready beside the one it runs (independent
  // branches; a step holding an If, Loop or Scan, whose body then runs inside the task) are handed
  // to `launcher` as tasks, never more than there are ready steps; each task runs ready steps until
  // none is left and returns. The calling thread keeps taking ready steps too, and can finish the
  // graph alone: a task that starts late, even after the run (or the session) is over, finds
  // nothing to do and returns at once. The reference, linear and dataflow executors run everything
  // on the calling thread and never call `launcher`. Returns when the graph has finished, so the
  // future is ready on return; the results are bitwise those of run. Errors are in the future,
  // never thrown: Trap and Unsupported as run throws them, an exception from `launcher` as the
  // run's error, LoadError for a null launcher.
  std::future<NamedValues> run_async(NamedValues inputs, TaskLauncher launcher) const;

  const SessionOptions& options() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Session(model, options).run(inputs), for a single run.
NamedValues run(const ModelHandle& model, const NamedValues& inputs, const SessionOptions& options = {});

// One operator version of the catalogue (ai.onnx 1-27, the preview domains, ai.onnx.ml 1-5) and what
// sonnx has for it: how it runs, and which parts of its record are filled.
struct OperatorVersion {
  std::string domain;  // "" = ai.onnx
  std::string name;
  int64_t version = 0;  // the schema's since_version
  bool deprecated = false;
  std::string runs;            // "kernel", "function body" or "unsupported" (refused by name)
  int64_t kernel_version = 0;  // the version whose reference kernel runs it (older only up to opset 17); 0: none
  std::string accuracy;        // that kernel's accuracy class: exact, rounding or random; "" without one
  bool attributes = false;     // the schema has attributes (a parameter struct applies)
  bool params = false;         // a typed parameter struct every layer reads its attributes from
  bool shape_rule = false;     // sonnx's own type and shape inference
  bool fast_kernel = false;    // a kernel of the optimized executors
  bool enclosure = false;      // a guaranteed enclosure (sonnx enclose, the enclosure judge)
  bool upgrade = false;        // an adapter to a newer version (admission into the profile)
  bool emit_c = false;         // a C emitter
  std::string id() const;      // "Conv-22", "ai.onnx.ml.Scaler-1"
};
// Every operator version of the catalogue, in its order (by domain, name and version).
std::vector<OperatorVersion> operator_versions();

// The executor names run and Session accept: reference, linear, dataflow, parallel.
std::vector<std::string> executors();
// The optimized ones among them (compiled, with a memory plan): linear, dataflow, parallel.
std::vector<std::string> optimized_executors();

// Guaranteed enclosures (spec/accuracy.md): for every output element, an interval that contains
// the model's result in exact real arithmetic ("real"), or every result an implementation meeting
// each operator's accuracy allowance may produce ("admissible").
struct OutputEnclosure {
  DType type = DType::Undefined;  // the output's element type
  // float64 bounds rounded outward (NaN where an element has no real value) for a float output;
  // for an integer or bool output, its exact value in both.
  Tensor lower, upper;
};

// The width of [lower, upper] in units in the last place of `type` at its larger magnitude: 0 for a
// point, +inf where a bound is infinite, NaN where the element is undefined. How the enclosure
// judge and `sonnx enclose` measure an enclosure.
double width_in_ulps(DType type, double lower, double upper);

// Checks the model (profile onnx, unless check is false) and encloses every output. Throws
// CheckFailed, Unsupported (an operator version without an enclosure, an output that is a sequence
// or an optional), Undetermined, Trap.
std::map<std::string, OutputEnclosure> enclosures(const ModelHandle& model, const NamedValues& inputs,
                                                  const std::string& semantics = "real", bool check = true);

// One test of a conformance run or a certification.
struct TestOutcome {
  std::string name;
  std::string status;                 // passed, failed, errored, skipped, crashed, timeout (certify also: unsupported)
  std::vector<std::string> op_types;  // operator versions the model selects: "Conv-11"
  double max_abs = 0, max_rel = 0, max_ulp = 0;  // worst errors over the outputs
  double time_ms = 0;
  std::string message;
  std::string judge = "tolerance";  // how the outputs were judged: tolerance, or enclosure where the model has one
  std::string repro;                // certify: the command that replays the test
  std::string localized;            // certify with localize: the first node whose output leaves its enclosure
  std::string blame;                // certify, a failing test: the operator it blames and how, or "not localized: <why>"
  // certify, a failed test: why, as "label: text" lines (the node, its inputs' ranges, the first wrong
  // element, its repro directory and the command that reruns it; docs/certify-failures.md)
  std::string explanation;
};

struct ConformOptions {
  std::string executor = "reference";
  int threads = 2;
  std::string filter{};                // regular expression on test names; empty: all
  std::string judge = "tolerance";     // or "enclosure" (spec/accuracy.md)
  bool isolate = true;                 // each test in a child process (a crash is that test's result)
  double timeout_seconds = 120;        // per test, when isolated
  bool check = true;                   // validate each model first (profile onnx)
  std::filesystem::path skips{};       // empty: the skip list sonnx ships
  std::filesystem::path tolerances{};  // empty: the tolerance overrides sonnx ships
  bool progress = false;               // a progress line on stderr
  std::string shard{};                 // "K/N": run shard K (0-based) of N; empty: all (or GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS)
  // Where an operator version has both a kernel and a function body, expand the body instead.
  bool prefer_function_bodies = false;
  std::string inject_fault{};  // TEST ONLY: plant a bug after every step of this op type (optimized executors)
};

struct ConformReport {
  std::string executor;
  int total = 0, passed = 0, failed = 0, errored = 0, skipped = 0;
  std::vector<TestOutcome> tests;
  std::string json;  // the full report, as `sonnx conform --format json` prints it
  // Writes it as .json, .md, .xml (JUnit) or .html, by the extension. Throws LoadError otherwise.
  void write(const std::filesystem::path& file) const;

  std::shared_ptr<const void> detail;  // the runner's full report (internal)
};

// Runs backend-test directories (model.onnx + test_data_set_N, or folders of them). Throws
// LoadError when no test directory is found or an option is invalid; everything that goes wrong
// inside a test is that test's result.
ConformReport conform(const std::vector<std::filesystem::path>& dirs, const ConformOptions& options = {});

struct CertificationOptions {
  std::string backend = "cpu";  // reference, cpu, or a plugin shared library (.so)
  // Instead of a backend, an external runtime run as COMMAND MODEL INPUT_DIR OUTPUT_DIR (input_K.pb
  // in, output_K.pb out; exit 0 ok, 3 unsupported). Empty: the backend.
  std::string backend_command{};
  // With backend_command: start it once as COMMAND --serve and send it a JSON line per test (the
  // persistent protocol, docs/backends.md). Throws LoadError when it makes no handshake.
  bool persistent_command = false;
  bool fallback = true;  // run what the backend cannot on cpu
  // Instead of a backend, exactly this device set (as SessionOptions::devices; the assignment is
  // made per test, "profile" measuring each test's model afresh).
  std::vector<std::string> devices{};
  std::vector<std::string> plugins{};
  std::string assign = "first";
  std::string filter{};             // regular expression on test names; empty: all
  std::string judge = "tolerance";  // or "enclosure"
  // A backend or device set: run a failing test's model node by node and name (and blame) the first
  // node leaving its enclosure (a runtime command is given each one-node model as files).
  bool localize = true;
  double timeout_seconds = 60;     // per test
  std::string shard{};             // "K/N", as ConformOptions::shard
  std::filesystem::path skips{};   // a skip list (pattern and reason per line); empty: none
  std::filesystem::path resume{};  // JSON lines: results already there are kept, new ones appended as they come
  // Where each failed test's repro directory is written (DIR/<test>/, docs/certify-failures.md); empty: none.
  std::filesystem::path repro_dir{};
  bool progress = false;
};

struct CertifiedOperator {
  std::string op_type;
  std::string verdict;  // certified, failed, unsupported, untested
  int tests = 0, passed = 0, failed = 0;
};

struct Certificate {
  std::string backend, backend_version;
  std::string verdict;                 // certified, failed, unsupported (nothing failed or certified), untested
  std::string judge;                   // how the outputs were judged: tolerance or enclosure
  std::string judge_statement;         // the certificate's statement of how it judged, with the fallbacks by reason
  std::map<std::string, int> summary;  // total, passed, failed, unsupported, crashed, timeout, errored, skipped, ...
  std::vector<CertifiedOperator> operators;
  std::vector<TestOutcome> tests;
  std::string json;                                     // the full certificate, as `sonnx certify --format json` prints it
  void write(const std::filesystem::path& file) const;  // .json, .md, .xml or .html

  std::shared_ptr<const void> detail;  // the certifier's full report (internal)
};

// Certifies a backend or runtime on the suites (each test judged against the reference interpreter
// under the strict tolerances or by its admissible enclosure, in a child process). Throws LoadError for an unknown backend, bad
// options or no tests.
Certificate certify(const std::vector<std::filesystem::path>& suites, const CertificationOptions& options = {});

// Merges JSON certificates (written by certify, e.g. of shards or resumed runs) into one: the
// verdicts are recomputed from the union of the tests (a test in several files keeps the last).
// Throws LoadError for a file that is unreadable or no certificate, one certifying another
// backend or judged by another judge, or no file.
Certificate merge_certificates(const std::vector<std::filesystem::path>& files);

}  // namespace sonnx
#pragma GCC visibility pop

// The commands' other tools, by topic. Each includes this header and uses only what is declared
// above (none uses another), so any of them may be included first.
#include "devices.hpp"       // devices, and plans placing a model on them
#include "tensor_files.hpp"  // .npy and .pb files, a model's inputs
#include "tools.hpp"         // prepared models, memory plans, benchmarks, fuzzing

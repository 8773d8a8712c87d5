// A runtime certified through the process protocol (target.h): the data set's input_K.pb files are
// copied into a fresh directory, the runtime runs the model on them, and its output_K.pb files are
// read back by the graph outputs' declared kinds. One-shot: the command runs once per model in its
// own process group under the timeout; exit status 3 is a refusal (`unsupported`, the last line
// printed is the reason), any other non-zero status an error. Persistent (`--persistent`): one
// runtime started as `CMD --serve` answers a JSON line per model (persistent_runner.h).
#include <signal.h>
#include <stdlib.h>

#include <cctype>
#include <cstring>
#include <optional>

#include "command_runner.h"
#include "persistent_runner.h"
#include "reference/model/tensor_proto.h"
#include "sonnx/errors.h"
#include "target.h"

namespace sonnx {

namespace {

namespace fs = std::filesystem;

// A command's output as a one-line message: colour escapes dropped, lines joined, the end kept.
std::string one_line(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\033') {
      while (i < s.size() && !std::isalpha(static_cast<unsigned char>(s[i]))) ++i;
      continue;
    }
    char c = s[i] == '\n' || s[i] == '\r' ? ' ' : s[i];
    if (!(c == ' ' && !out.empty() && out.back() == ' ')) out += c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out.size() > 400 ? "..." + out.substr(out.size() - 400) : out;
}

// Exit 3 (the runtime declines the model): its reason is the last line the command printed, as
// the protocol says, so that warnings printed before it do not bury it.
std::string refusal_reason(std::string output) {
  while (!output.empty() && std::isspace(static_cast<unsigned char>(output.back()))) output.pop_back();
  if (output.empty()) return "the runtime declined the model (exit status 3) without a reason";
  size_t newline = output.find_last_of('\n');
  return one_line(newline == std::string::npos ? output : output.substr(newline + 1));
}

std::string signal_text(int signal) { return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")"; }

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

// One run's directory: in/ holds copies of the data set's input_K.pb (never its expected
// outputs), out/ is where the runtime writes; removed with the object.
class RunDir {
 public:
  explicit RunDir(const fs::path& data_set) {
    std::string tmpl = (fs::temp_directory_path() / "sonnx-certify-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error(std::string("mkdtemp: ") + std::strerror(errno));
    root_ = tmpl;
    try {
      fs::create_directories(in());
      fs::create_directories(out());
      for (const auto& e : fs::directory_iterator(data_set)) {
        std::string f = e.path().filename().string();
        if (f.rfind("input_", 0) == 0 && e.path().extension() == ".pb") fs::copy_file(e.path(), in() / f);
      }
    } catch (...) {
      std::error_code ec;
      fs::remove_all(root_, ec);  // the destructor does not run for an object never made
      throw;
    }
  }
  ~RunDir() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  RunDir(const RunDir&) = delete;
  RunDir& operator=(const RunDir&) = delete;
  fs::path root() const { return root_; }
  fs::path in() const { return root_ / "in"; }
  fs::path out() const { return root_ / "out"; }

 private:
  fs::path root_;
};

// What both forms share: the run directory around the exchange with the runtime, and the outputs
// read back when it says ok.
class ProtocolTarget : public CertTarget {
 public:
  explicit ProtocolTarget(std::string cmd, double timeout) : cmd_(std::move(cmd)), timeout_(timeout) {}
  std::string name() const override { return cmd_; }
  bool enforces_timeout() const override { return true; }

  TargetResult run(const Model& model, const TestCase& test, const fs::path& data_set, const NamedValues&) override {
    TargetResult r;
    std::optional<RunDir> dir;
    try {
      dir.emplace(data_set);
    } catch (const std::exception& e) {
      r.status = "errored";
      r.message = std::string("cannot stage the inputs: ") + e.what();
      return r;
    }
    exchange(fs::absolute(test.model), *dir, r);
    if (r.status == "ok") read_outputs(model, dir->out(), r);
    return r;
  }

 protected:
  // Runs the runtime on the model and the staged inputs; sets r's status (and message).
  virtual void exchange(const fs::path& model, const RunDir& dir, TargetResult& r) = 0;

  std::string cmd_;
  double timeout_;

 private:
  static void read_outputs(const Model& model, const fs::path& dir, TargetResult& r) {
    const auto& outs = model.graph.outputs;
    for (size_t k = 0; k < outs.size(); ++k) {
      fs::path f = dir / ("output_" + std::to_string(k) + ".pb");
      try {
        if (!fs::exists(f)) throw std::runtime_error("missing");
        r.outputs[outs[k].name] = read_value_pb(f, value_pb_kind(outs[k].type));
      } catch (const std::exception& e) {
        r.status = "garbage";
        r.message = "output_" + std::to_string(k) + ".pb (" + outs[k].name + ") unreadable: " + e.what();
        return;
      }
    }
  }
};

// One process per model: CMD MODEL INPUT_DIR OUTPUT_DIR.
class CommandTarget : public ProtocolTarget {
 public:
  using ProtocolTarget::ProtocolTarget;
  std::string version() const override { return "process protocol"; }

 protected:
  void exchange(const fs::path& model, const RunDir& dir, TargetResult& r) override {
    CommandResult cr = run_command(cmd_, {model.string(), dir.in().string(), dir.out().string()}, timeout_,
                                   dir.root() / "log.txt");
    switch (cr.status) {
      case CommandResult::Status::NotStarted:
        r.status = "errored";
        r.message = "could not start the command: " + one_line(cr.output_tail);
        break;
      case CommandResult::Status::Timeout:
        r.status = "timeout";
        r.message = "no result within " + std::to_string(timeout_) + " s";
        break;
      case CommandResult::Status::Signaled:
        r.status = "crashed";
        r.message = signal_text(cr.signal);
        break;
      case CommandResult::Status::Exited:
        if (cr.exit_code == 3) {
          r.status = "unsupported";
          r.message = refusal_reason(cr.output_tail);
        } else if (cr.exit_code != 0) {
          r.status = "errored";
          r.message = "exit status " + std::to_string(cr.exit_code) + ": " + one_line(cr.output_tail);
        }
        break;
    }
  }
};

// One runtime for all models, started as CMD --serve (restarted by the runner after a timeout, a
// death or a garbage reply). Its handshake happens here, so a command that does not speak the
// protocol stops the run before any test.
class PersistentTarget : public ProtocolTarget {
 public:
  PersistentTarget(std::string cmd, double timeout) : ProtocolTarget(std::move(cmd), timeout), runner_(start(cmd_, timeout)) {}
  std::string version() const override {
    std::string v = runner_->runtime_name();
    if (!runner_->runtime_version().empty()) v += (v.empty() ? "" : " ") + runner_->runtime_version();
    return v.empty() ? "persistent protocol" : v + " (persistent protocol)";
  }

 protected:
  void exchange(const fs::path& model, const RunDir& dir, TargetResult& r) override {
    ServeOutcome o = runner_->run(model.string(), dir.in().string(), dir.out().string());
    // What it printed besides replies, after the message, when there is any.
    auto with_log = [&](std::string m) {
      std::string log = one_line(o.log);
      return log.empty() ? m : m + (m.empty() ? "" : "; ") + "it printed: " + log;
    };
    using S = ServeOutcome::Status;
    switch (o.status) {
      case S::Ok: break;
      case S::Unsupported:
        r.status = "unsupported";
        r.message = o.message.empty() ? "the runtime declined the model without a reason" : one_line(o.message);
        break;
      case S::Error:
        r.status = "errored";
        r.message = o.message.empty() ? with_log("the runtime reported an error without a message") : one_line(o.message);
        break;
      case S::Timeout:
        r.status = "timeout";
        r.message = "no reply within " + seconds_text(timeout_) + " s (the runtime was killed; a new one serves the next test)";
        break;
      case S::Crashed:
        r.status = "crashed";
        r.message = with_log(signal_text(o.signal));
        break;
      case S::Exited:
        r.status = "errored";
        r.message = with_log("the runtime ended without replying: " + o.message);
        break;
      case S::Garbage:
        r.status = "garbage";
        r.message = o.message + " (the runtime was killed; a new one serves the next test)";
        break;
      case S::NoHandshake:
        r.status = "errored";
        r.message = with_log("the runtime could not be started again: " + o.message);
        break;
      case S::Broken:
        r.status = "errored";
        r.message = o.message;
        break;
    }
  }

 private:
  static std::unique_ptr<PersistentRunner> start(const std::string& cmd, double timeout) {
    try {
      return std::make_unique<PersistentRunner>(cmd, timeout);
    } catch (const NoHandshakeError& e) {
      std::string log = one_line(e.log);
      throw LoadError(cmd + " does not speak the persistent protocol (" + e.what() + "); run without --persistent" +
                      (log.empty() ? "" : ". It printed: " + log));
    } catch (const std::runtime_error& e) {
      throw LoadError("cannot start " + cmd + " --serve: " + e.what());
    }
  }
  std::unique_ptr<PersistentRunner> runner_;
};

}  // namespace

std::unique_ptr<CertTarget> make_command_target(const std::string& command, double timeout_seconds, bool persistent) {
  if (persistent) return std::make_unique<PersistentTarget>(command, timeout_seconds);
  return std::make_unique<CommandTarget>(command, timeout_seconds);
}

}  // namespace sonnx

// A runtime certified through the process protocol (target.h): the data set's input_K.pb files are
// copied into a fresh directory, the command runs in its own process group under the timeout, and
// its output_K.pb files are read back by the graph outputs' declared kinds. Exit status 3 is a
// refusal (`unsupported`, the last line printed is the reason); any other non-zero status an error.
#include <signal.h>
#include <stdlib.h>

#include <cctype>
#include <cstring>

#include "command_runner.h"
#include "reference/model/tensor_proto.h"
#include "target.h"

namespace sonnx {

namespace {

namespace fs = std::filesystem;

std::string kind_of(const TypeInfo& t) {
  switch (t.kind) {
    case TypeInfo::Kind::Sequence: return "sequence";
    case TypeInfo::Kind::Optional: return "optional";
    case TypeInfo::Kind::Tensor: return "tensor";
    default: return "";
  }
}

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

class CommandTarget : public CertTarget {
 public:
  CommandTarget(std::string cmd, double timeout) : cmd_(std::move(cmd)), timeout_(timeout) {}
  std::string name() const override { return cmd_; }
  std::string version() const override { return "process protocol"; }
  bool enforces_timeout() const override { return true; }

  TargetResult run(const Model& model, const TestCase& test, const fs::path& data_set, const NamedValues&) override {
    TargetResult r;
    std::string tmpl = (fs::temp_directory_path() / "sonnx-certify-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) {
      r.status = "errored";
      r.message = std::string("mkdtemp: ") + std::strerror(errno);
      return r;
    }
    fs::path work = tmpl;
    fs::create_directories(work / "in");
    fs::create_directories(work / "out");
    for (const auto& e : fs::directory_iterator(data_set)) {
      std::string f = e.path().filename().string();
      if (f.rfind("input_", 0) == 0 && e.path().extension() == ".pb") fs::copy_file(e.path(), work / "in" / f);
    }
    CommandResult cr = run_command(cmd_, {fs::absolute(test.model).string(), (work / "in").string(), (work / "out").string()},
                                   timeout_, work / "log.txt");
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
        r.message = "killed by signal " + std::to_string(cr.signal) + " (" + strsignal(cr.signal) + ")";
        break;
      case CommandResult::Status::Exited:
        if (cr.exit_code == 3) {
          r.status = "unsupported";
          r.message = refusal_reason(cr.output_tail);
        } else if (cr.exit_code != 0) {
          r.status = "errored";
          r.message = "exit status " + std::to_string(cr.exit_code) + ": " + one_line(cr.output_tail);
        } else {
          read_outputs(model, work / "out", r);
        }
        break;
    }
    std::error_code ec;
    fs::remove_all(work, ec);
    return r;
  }

 private:
  static void read_outputs(const Model& model, const fs::path& dir, TargetResult& r) {
    const auto& outs = model.graph.outputs;
    for (size_t k = 0; k < outs.size(); ++k) {
      fs::path f = dir / ("output_" + std::to_string(k) + ".pb");
      try {
        if (!fs::exists(f)) throw std::runtime_error("missing");
        r.outputs[outs[k].name] = read_value_pb(f, kind_of(outs[k].type));
      } catch (const std::exception& e) {
        r.status = "garbage";
        r.message = "output_" + std::to_string(k) + ".pb (" + outs[k].name + ") unreadable: " + e.what();
        return;
      }
    }
  }
  std::string cmd_;
  double timeout_;
};

}  // namespace

std::unique_ptr<CertTarget> make_command_target(const std::string& command, double timeout_seconds) {
  return std::make_unique<CommandTarget>(command, timeout_seconds);
}

}  // namespace sonnx

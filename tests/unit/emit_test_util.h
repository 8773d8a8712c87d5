// Helpers the emit-c unit tests share: running the system's C compiler and the generated program
// through the shell, and reading what they wrote.
#pragma once
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "emit/emit_model.h"

namespace sonnx::emit_test {

// The exit status of a shell command (-1 when it did not exit normally).
inline int status(const std::string& command) {
  const int s = std::system(command.c_str());
  return s != -1 && WIFEXITED(s) ? WEXITSTATUS(s) : -1;
}

// Whether the system has a C compiler `cc`.
inline bool has_cc() { return status("cc --version >/dev/null 2>&1") == 0; }

// A fresh, empty directory for the running test: TMP/sonnx-emit-TOPIC-PID-TESTNAME.
inline std::filesystem::path scratch_dir(const std::string& topic) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("sonnx-emit-" + topic + "-" + std::to_string(::getpid()) + "-" +
                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// A path quoted for the shell.
inline std::string quote(const std::filesystem::path& p) {
  std::string out = "'";
  for (char c : p.string()) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A whole file's bytes.
inline std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The content of the generated file `name`.
inline const std::string& file(const emit::EmitResult& r, const std::string& name) {
  for (const emit::EmittedFile& f : r.files)
    if (f.name == name) return f.content;
  throw std::runtime_error("no file " + name);
}

}  // namespace sonnx::emit_test

// consumer MODEL X0 X1: loads a model with one input X of shape [1,2] (the rule fixture
// good_sonnx_mlp.onnx), checks it under the sonnx profile, runs it from two threads on one
// session and prints "Y = ..." once per thread, or the typed error and exit 1.
#include <functional>
#include <iostream>
#include <string>
#include <thread>

#include <sonnx/sonnx.hpp>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: consumer MODEL X0 X1\n";
    return 2;
  }
  try {
    sonnx::ModelHandle model = sonnx::load(argv[1]);
    std::vector<sonnx::Diagnostic> findings = sonnx::check(model, "sonnx");
    for (const auto& d : findings) std::cout << sonnx::format_diagnostic(d) << "\n";
    std::cout << "sonnx " << sonnx::version() << ": " << findings.size() << " findings\n";
    sonnx::Session session(model, {.executor = "linear"});
    sonnx::NamedValues input{{"X", sonnx::Tensor::from_vector<float>({1, 2}, {std::stof(argv[2]), std::stof(argv[3])})}};
    std::string lines[2];
    auto run_into = [&](std::string& line) {
      sonnx::NamedValues out = session.run(input);
      for (float v : out.at("Y").tensor.values<float>()) line += " " + std::to_string(v);
    };
    std::thread other(run_into, std::ref(lines[1]));
    run_into(lines[0]);
    other.join();
    std::cout << "Y =" << lines[0] << "\nY =" << lines[1] << "\n";
  } catch (const sonnx::CheckFailed& e) {
    std::cerr << "check failed: " << e.details() << "\n";
    return 1;
  } catch (const sonnx::LoadError& e) {
    std::cerr << "load error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

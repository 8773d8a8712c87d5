#include "text_parser.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <map>

#include "reference/model/dtype.h"

namespace sonnx::functions {

ParseError::ParseError(int l, int c, const std::string& what)
    : std::runtime_error("line " + std::to_string(l) + ", column " + std::to_string(c) + ": " + what), line(l), column(c) {}

namespace {

struct Token {
  enum class Kind { End, Id, Int, Float, String, Punct };
  Kind kind = Kind::End;
  std::string text;  // identifier, number spelling, string contents or punctuation
  int line = 1, column = 1;
};

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  std::vector<Token> tokens() {
    std::vector<Token> out;
    for (;;) {
      skip_space();
      Token t;
      t.line = line_;
      t.column = col_;
      if (pos_ >= s_.size()) {
        out.push_back(t);
        return out;
      }
      char c = s_[pos_];
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        t.kind = Token::Kind::Id;
        while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) t.text += take();
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 ((c == '-' || c == '+' || c == '.') && pos_ + 1 < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_ + 1])) || s_[pos_ + 1] == '.'))) {
        number(t);
      } else if (c == '"') {
        string(t);
      } else {
        t.kind = Token::Kind::Punct;
        t.text = take();
        if ((t.text == "=" && peek() == '>') || (t.text == "=" && peek() == '=') || (t.text == "!" && peek() == '='))
          t.text += take();
        if (std::string_view("<>()[]{},:=@$.").find(t.text) == std::string_view::npos && t.text != "=>" && t.text != "==" &&
            t.text != "!=")
          throw ParseError(t.line, t.column, "unexpected character '" + t.text + "'");
      }
      out.push_back(std::move(t));
    }
  }

 private:
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  char take() {
    char c = s_[pos_++];
    if (c == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    return c;
  }
  void skip_space() {
    while (pos_ < s_.size()) {
      if (s_[pos_] == '#') {
        while (pos_ < s_.size() && s_[pos_] != '\n') take();
      } else if (std::isspace(static_cast<unsigned char>(s_[pos_]))) {
        take();
      } else {
        return;
      }
    }
  }
  void number(Token& t) {
    t.kind = Token::Kind::Int;
    if (peek() == '-' || peek() == '+') t.text += take();
    auto digits = [&] {
      while (std::isdigit(static_cast<unsigned char>(peek()))) t.text += take();
    };
    digits();
    if (peek() == '.') {
      t.kind = Token::Kind::Float;
      t.text += take();
      digits();
    }
    if (peek() == 'e' || peek() == 'E') {
      t.kind = Token::Kind::Float;
      t.text += take();
      if (peek() == '-' || peek() == '+') t.text += take();
      if (!std::isdigit(static_cast<unsigned char>(peek()))) throw ParseError(line_, col_, "malformed number exponent");
      digits();
    }
  }
  void string(Token& t) {
    t.kind = Token::Kind::String;
    take();
    for (;;) {
      if (pos_ >= s_.size()) throw ParseError(t.line, t.column, "unterminated string");
      char c = take();
      if (c == '"') return;
      if (c == '\\') {
        if (pos_ >= s_.size()) throw ParseError(t.line, t.column, "unterminated string");
        char e = take();
        t.text += e == 'n' ? '\n' : e == 't' ? '\t' : e;
      } else {
        t.text += c;
      }
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
  int line_ = 1, col_ = 1;
};

const std::map<std::string, Attribute::Type>& attribute_types() {
  static const std::map<std::string, Attribute::Type> m{
      {"int", Attribute::Type::Int},         {"float", Attribute::Type::Float},   {"string", Attribute::Type::String},
      {"tensor", Attribute::Type::Tensor},   {"graph", Attribute::Type::Graph},   {"ints", Attribute::Type::Ints},
      {"floats", Attribute::Type::Floats},   {"strings", Attribute::Type::Strings}, {"tensors", Attribute::Type::Tensors},
      {"graphs", Attribute::Type::Graphs}};
  return m;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : toks_(Lexer(text).tokens()) {}

  bool at_end() const { return cur().kind == Token::Kind::End; }

  Function function(std::vector<std::vector<Condition>>* node_guards = nullptr) {
    Function fn;
    expect("<");
    do {
      const Token& key = expect_id();
      expect(":");
      if (key.text == "domain") {
        fn.domain = expect_kind(Token::Kind::String, "a string").text;
      } else if (key.text == "opset_import") {
        expect("[");
        if (!accept("]")) {
          do {
            std::string d = expect_kind(Token::Kind::String, "a domain string").text;
            expect(":");
            fn.opset_imports[d == "ai.onnx" ? "" : d] = integer();
          } while (accept(","));
          expect("]");
        }
      } else {
        fail(key, "unknown function header key '" + key.text + "' (domain or opset_import)");
      }
    } while (accept(","));
    expect(">");
    fn.name = expect_id().text;
    if (accept("<")) {
      do {
        std::string name = expect_id().text;
        fn.attributes.push_back(name);
        Attribute::Type type = Attribute::Type::Undefined;
        if (accept(":")) type = attribute_type();
        if (accept("=")) {
          Attribute a = value(type);
          a.name = name;
          fn.attribute_defaults.push_back(std::move(a));
        }
      } while (accept(","));
      expect(">");
    }
    fn.inputs = name_list();
    expect("=>");
    fn.outputs = name_list();
    expect("{");
    std::vector<Condition> active;
    guarded_nodes(fn.nodes, node_guards, active);
    return fn;
  }

  // Nodes up to the closing '}', with `when ... { }` blocks where `node_guards` is given.
  void guarded_nodes(std::vector<Node>& nodes, std::vector<std::vector<Condition>>* node_guards, std::vector<Condition>& active) {
    while (!accept("}")) {
      if (at_end()) fail(cur(), "expected '}' before the end of the text");
      if (is_id("when") && (next().kind == Token::Kind::Id || (next().kind == Token::Kind::Punct && next().text == "$"))) {
        if (!node_guards) fail(cur(), "a guarded block ('when') is only allowed in a body file's function");
        size_t depth = active.size();
        for (auto& c : guard()) active.push_back(std::move(c));
        expect("{");
        guarded_nodes(nodes, node_guards, active);
        active.resize(depth);
        continue;
      }
      nodes.push_back(node());
      if (node_guards) node_guards->push_back(active);
    }
  }

  std::vector<Condition> guard() {
    std::vector<Condition> out;
    if (!is_id("when")) return out;
    advance();
    do {
      Condition c;
      if (accept("$")) {  // `$elem_type(X) == 9`: compares the element type of input X
        const Token& f = expect_id();
        if (f.text != "elem_type") fail(f, "unknown substitution '$" + f.text + "' (only $elem_type(input))");
        expect("(");
        c.name = std::string(kElemTypeMarker) + expect_id().text;
        expect(")");
        if (accept("==")) c.kind = Condition::Kind::Equal;
        else if (accept("!=")) c.kind = Condition::Kind::NotEqual;
        else fail(cur(), "expected '==' or '!=' after $elem_type(...) in a guard");
        c.value = value(Attribute::Type::Int);
        out.push_back(std::move(c));
        continue;
      }
      const Token& t = expect_id();
      if ((t.text == "present" || t.text == "absent") && is("(")) {
        c.kind = t.text == "present" ? Condition::Kind::Present : Condition::Kind::Absent;
        expect("(");
        c.name = expect_id().text;
        expect(")");
      } else {
        c.name = t.text;
        if (accept("==")) {
          c.kind = Condition::Kind::Equal;
        } else if (accept("!=")) {
          c.kind = Condition::Kind::NotEqual;
        } else {
          fail(cur(), "expected '==' or '!=' after attribute '" + t.text + "' in a guard");
        }
        c.value = value(Attribute::Type::Undefined);
        c.value.name = c.name;
      }
      out.push_back(std::move(c));
    } while (is_id("and") && (advance(), true));
    return out;
  }

  bool is_guard() const { return is_id("when"); }
  int line() const { return cur().line; }
  int column() const { return cur().column; }

 private:
  const Token& cur() const { return toks_[pos_]; }
  const Token& next() const { return toks_[std::min(pos_ + 1, toks_.size() - 1)]; }
  void advance() {
    if (pos_ + 1 < toks_.size()) ++pos_;
  }
  bool is(std::string_view p) const { return cur().kind == Token::Kind::Punct && cur().text == p; }
  bool is_id(std::string_view s) const { return cur().kind == Token::Kind::Id && cur().text == s; }
  bool accept(std::string_view p) {
    if (!is(p)) return false;
    advance();
    return true;
  }
  [[noreturn]] static void fail(const Token& t, const std::string& what) { throw ParseError(t.line, t.column, what); }
  static std::string spelling(const Token& t) {
    switch (t.kind) {
      case Token::Kind::End: return "the end of the text";
      case Token::Kind::String: return "\"" + t.text + "\"";
      default: return "'" + t.text + "'";
    }
  }
  void expect(std::string_view p) {
    if (!accept(p)) fail(cur(), "expected '" + std::string(p) + "', found " + spelling(cur()));
  }
  const Token& expect_kind(Token::Kind k, const std::string& what) {
    if (cur().kind != k) fail(cur(), "expected " + what + ", found " + spelling(cur()));
    const Token& t = cur();
    advance();
    return t;
  }
  const Token& expect_id() { return expect_kind(Token::Kind::Id, "a name"); }
  int64_t integer() {
    const Token& t = expect_kind(Token::Kind::Int, "an integer");
    errno = 0;
    long long v = std::strtoll(t.text.c_str(), nullptr, 10);
    if (errno == ERANGE) fail(t, "integer out of range: " + t.text);
    return v;
  }
  double real() {
    if (cur().kind != Token::Kind::Int && cur().kind != Token::Kind::Float) fail(cur(), "expected a number, found " + spelling(cur()));
    double v = std::strtod(cur().text.c_str(), nullptr);
    advance();
    return v;
  }

  Attribute::Type attribute_type() {
    const Token& t = expect_id();
    auto it = attribute_types().find(t.text);
    if (it == attribute_types().end()) fail(t, "unknown attribute type '" + t.text + "'");
    return it->second;
  }

  // `(a, b)`; an empty name between commas is an omitted optional value.
  std::vector<std::string> name_list() {
    std::vector<std::string> out;
    expect("(");
    if (accept(")")) return out;
    for (;;) {
      if (is(",") || is(")")) {
        out.emplace_back();
      } else {
        out.push_back(expect_id().text);
      }
      if (accept(")")) return out;
      if (!accept(",")) fail(cur(), "expected ',' or ')', found " + spelling(cur()));
    }
  }

  // `(float[N] x, y)` in a graph signature: the types are optional and, when written, recorded.
  std::vector<ValueInfo> value_infos() {
    std::vector<ValueInfo> out;
    expect("(");
    if (accept(")")) return out;
    do {
      ValueInfo v;
      if (cur().kind == Token::Kind::Id && (next().kind == Token::Kind::Id || (next().kind == Token::Kind::Punct && next().text == "["))) {
        const Token& t = expect_id();
        v.type.kind = TypeInfo::Kind::Tensor;
        v.type.elem = dtype_from_name(t.text);
        if (v.type.elem == DType::Undefined) fail(t, "unknown element type '" + t.text + "'");
        if (is("[")) {
          std::vector<Dim> dims;
          for (int64_t d : shape()) dims.push_back(d < 0 ? Dim{} : Dim{d, ""});
          v.type.shape = dims;
        }
      }
      v.name = expect_id().text;
      out.push_back(std::move(v));
    } while (accept(","));
    expect(")");
    return out;
  }

  // `[2, 3]` (a symbolic or `?` dimension is -1).
  std::vector<int64_t> shape() {
    std::vector<int64_t> dims;
    expect("[");
    if (accept("]")) return dims;
    do {
      if (cur().kind == Token::Kind::Id) {
        advance();
        dims.push_back(-1);
      } else {
        dims.push_back(integer());
      }
    } while (accept(","));
    expect("]");
    return dims;
  }

  std::vector<Node> node_block() {
    std::vector<Node> nodes;
    expect("{");
    while (!accept("}")) {
      if (at_end()) fail(cur(), "expected '}' before the end of the text");
      nodes.push_back(node());
    }
    return nodes;
  }

  Node node() {
    Node n;
    do n.outputs.push_back(expect_id().text);
    while (accept(","));
    expect("=");
    if (accept("@")) {  // `outs = @attr (ins)`: a call of the caller's graph attribute `attr`
      n.op_type = std::string(kGraphCallMarker) + expect_id().text;
      n.inputs = name_list();
      return n;
    }
    std::string qualified = expect_id().text;
    while (accept(".")) qualified += "." + expect_id().text;
    size_t dot = qualified.rfind('.');
    n.op_type = dot == std::string::npos ? qualified : qualified.substr(dot + 1);
    n.domain = dot == std::string::npos ? "" : qualified.substr(0, dot);
    if (n.domain == "ai.onnx") n.domain.clear();
    if (accept("<")) {
      do n.attributes.push_back(attribute());
      while (accept(","));
      expect(">");
    }
    n.inputs = name_list();
    return n;
  }

  Attribute attribute() {
    const Token& name = expect_id();
    Attribute::Type type = Attribute::Type::Undefined;
    if (accept(":")) type = attribute_type();
    expect("=");
    Attribute a;
    if (accept("@")) {
      a.ref_attr_name = expect_id().text;
      a.type = type;
    } else if (accept("$")) {
      const Token& f = expect_id();
      if (f.text != "elem_type") fail(f, "unknown substitution '$" + f.text + "' (only $elem_type(input))");
      expect("(");
      a.ref_attr_name = std::string(kElemTypeMarker) + expect_id().text;
      expect(")");
      a.type = Attribute::Type::Int;
    } else {
      a = value(type);
    }
    a.name = name.text;
    return a;
  }

  // A literal, typed by `type` when given, else by its spelling.
  Attribute value(Attribute::Type type) {
    Attribute a;
    const Token& t = cur();
    if (t.kind == Token::Kind::Int || t.kind == Token::Kind::Float) {
      bool as_float = type == Attribute::Type::Float || (type == Attribute::Type::Undefined && t.kind == Token::Kind::Float);
      if (as_float) {
        a.type = Attribute::Type::Float;
        a.f = static_cast<float>(real());
      } else {
        a.type = Attribute::Type::Int;
        a.i = integer();
      }
    } else if (t.kind == Token::Kind::String) {
      a.type = Attribute::Type::String;
      a.s = t.text;
      advance();
    } else if (is("[")) {
      list(a, type);
    } else if (t.kind == Token::Kind::Id && next().kind == Token::Kind::Punct && (next().text == "[" || next().text == "{")) {
      a.type = Attribute::Type::Tensor;
      a.t = tensor();
    } else if (t.kind == Token::Kind::Id && next().kind == Token::Kind::Punct && next().text == "(") {
      a.type = Attribute::Type::Graph;
      a.g = graph();
    } else {
      fail(t, "expected an attribute value, found " + spelling(t));
    }
    if (type != Attribute::Type::Undefined && a.type != type)
      fail(t, std::string("the value is of type ") + attribute_type_name(a.type) + ", the attribute is declared " +
                  attribute_type_name(type));
    return a;
  }

  void list(Attribute& a, Attribute::Type type) {
    const Token& open = cur();
    expect("[");
    std::vector<Token> items;
    if (!is("]")) {
      do {
        if (cur().kind != Token::Kind::Int && cur().kind != Token::Kind::Float && cur().kind != Token::Kind::String)
          fail(cur(), "expected a number or a string in a list, found " + spelling(cur()));
        items.push_back(cur());
        advance();
      } while (accept(","));
    }
    expect("]");
    bool strings = !items.empty() && items[0].kind == Token::Kind::String;
    bool floats = false;
    for (const auto& it : items) {
      if ((it.kind == Token::Kind::String) != strings) fail(it, "a list mixes strings and numbers");
      floats = floats || it.kind == Token::Kind::Float;
    }
    if (type == Attribute::Type::Floats) floats = true;
    if (items.empty() && type == Attribute::Type::Undefined) fail(open, "an empty list needs a declared type (ints, floats or strings)");
    a.type = type != Attribute::Type::Undefined ? type : strings ? Attribute::Type::Strings : floats ? Attribute::Type::Floats : Attribute::Type::Ints;
    for (const auto& it : items) {
      if (a.type == Attribute::Type::Strings) {
        if (!strings) fail(it, "expected a string");
        a.strings.push_back(it.text);
      } else if (a.type == Attribute::Type::Floats) {
        if (strings) fail(it, "expected a number");
        a.floats.push_back(std::strtof(it.text.c_str(), nullptr));
      } else if (a.type == Attribute::Type::Ints) {
        if (it.kind != Token::Kind::Int) fail(it, "expected an integer");
        a.ints.push_back(std::strtoll(it.text.c_str(), nullptr, 10));
      } else {
        fail(open, std::string("a list is not a value of type ") + attribute_type_name(a.type));
      }
    }
  }

  // `float[2] {1.0, 2.0}`, `int64 {3}` (a scalar), `bool[2] {1, 0}`.
  Tensor tensor() {
    const Token& t = expect_id();
    DType type = dtype_from_name(t.text);
    if (type == DType::Undefined) fail(t, "unknown element type '" + t.text + "'");
    std::vector<int64_t> dims;
    if (is("[")) dims = shape();
    for (int64_t d : dims)
      if (d < 0) fail(t, "a tensor literal needs numeric dimensions");
    expect("{");
    std::vector<Token> items;
    if (!is("}")) {
      do {
        if (cur().kind != Token::Kind::Int && cur().kind != Token::Kind::Float && cur().kind != Token::Kind::String)
          fail(cur(), "expected a tensor element, found " + spelling(cur()));
        items.push_back(cur());
        advance();
      } while (accept(","));
    }
    expect("}");
    Tensor out(type, dims);
    if (static_cast<int64_t>(items.size()) != out.size())
      fail(t, "the tensor literal has " + std::to_string(items.size()) + " elements, its shape needs " + std::to_string(out.size()));
    for (size_t i = 0; i < items.size(); ++i) store(out, static_cast<int64_t>(i), items[i]);
    return out;
  }

  static void store(Tensor& out, int64_t i, const Token& item) {
    bool is_float_type = out.dtype() == DType::Float || out.dtype() == DType::Double;
    if (out.dtype() == DType::String) {
      if (item.kind != Token::Kind::String) fail(item, "expected a string element");
      out.data<std::string>()[i] = item.text;
      return;
    }
    if (item.kind == Token::Kind::String) fail(item, "expected a number");
    if (item.kind == Token::Kind::Float && !is_float_type) fail(item, "a fractional element in an integer tensor");
    switch (out.dtype()) {
      case DType::Float: out.data<float>()[i] = std::strtof(item.text.c_str(), nullptr); return;
      case DType::Double: out.data<double>()[i] = std::strtod(item.text.c_str(), nullptr); return;
      case DType::Bool: out.data<bool>()[i] = std::strtoll(item.text.c_str(), nullptr, 10) != 0; return;
      case DType::Int8: out.data<int8_t>()[i] = static_cast<int8_t>(std::strtoll(item.text.c_str(), nullptr, 10)); return;
      case DType::UInt8: out.data<uint8_t>()[i] = static_cast<uint8_t>(std::strtoll(item.text.c_str(), nullptr, 10)); return;
      case DType::Int32: out.data<int32_t>()[i] = static_cast<int32_t>(std::strtoll(item.text.c_str(), nullptr, 10)); return;
      case DType::Int64: out.data<int64_t>()[i] = std::strtoll(item.text.c_str(), nullptr, 10); return;
      default: fail(item, "tensor literals of element type " + std::string(dtype_name(out.dtype())) + " are not supported");
    }
  }

  // `name (inputs) => (outputs) { nodes }`: a graph-valued attribute.
  std::shared_ptr<Graph> graph() {
    auto g = std::make_shared<Graph>();
    g->name = expect_id().text;
    g->inputs = value_infos();
    expect("=>");
    g->outputs = value_infos();
    g->nodes = node_block();
    for (size_t i = 0; i < g->nodes.size(); ++i) g->nodes[i].index = i;
    return g;
  }

  std::vector<Token> toks_;
  size_t pos_ = 0;
};

}  // namespace

Function parse_function(std::string_view text) {
  Parser p(text);
  if (p.is_guard()) throw ParseError(p.line(), p.column(), "a guard ('when') is only allowed in a body file");
  Function fn = p.function();
  if (!p.at_end()) throw ParseError(p.line(), p.column(), "text after the function's closing '}'");
  return fn;
}

std::vector<Alternative> parse_alternatives(std::string_view text) {
  Parser p(text);
  std::vector<Alternative> out;
  do {
    Alternative a;
    a.line = p.line();
    a.guard = p.guard();
    a.fn = p.function(&a.node_guards);
    out.push_back(std::move(a));
  } while (!p.at_end());
  return out;
}

}  // namespace sonnx::functions

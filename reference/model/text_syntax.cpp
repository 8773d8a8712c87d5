#include "text_syntax.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>
#include <map>

#include "sonnx/dtype.h"
#include "sonnx/errors.h"
#include "sonnx/small_types.h"
#include "sonnx/tensor.h"
#include "reference/ops/support/numeric.h"  // round_from_double: one rounding into float16/bfloat16

namespace sonnx::text {

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
      } else if (std::isdigit(static_cast<unsigned char>(c)) || starts_signed_or_fraction(c)) {
        number(t);
      } else if (c == '"') {
        string(t);
      } else {
        t.kind = Token::Kind::Punct;
        t.text = take();
        if ((t.text == "=" && peek() == '>') || (t.text == "=" && peek() == '=') || (t.text == "!" && peek() == '='))
          t.text += take();
        if (std::string_view("<>()[]{},:=@$.?").find(t.text) == std::string_view::npos && t.text != "=>" && t.text != "==" &&
            t.text != "!=")
          throw ParseError(t.line, t.column, "unexpected character '" + t.text + "'");
      }
      out.push_back(std::move(t));
    }
  }

 private:
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  // `-1`, `+2.5`, `-.5`, `.5` start a number; `...` (a variadic name in a body file) does not.
  bool starts_signed_or_fraction(char c) const {
    if (pos_ + 1 >= s_.size()) return false;
    char n = s_[pos_ + 1];
    bool digit = std::isdigit(static_cast<unsigned char>(n)) != 0;
    return ((c == '-' || c == '+') && (digit || n == '.')) || (c == '.' && digit);
  }
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
      {"int", Attribute::Type::Int},       {"float", Attribute::Type::Float},     {"string", Attribute::Type::String},
      {"tensor", Attribute::Type::Tensor}, {"graph", Attribute::Type::Graph},     {"ints", Attribute::Type::Ints},
      {"floats", Attribute::Type::Floats}, {"strings", Attribute::Type::Strings}, {"tensors", Attribute::Type::Tensors},
      {"graphs", Attribute::Type::Graphs}};
  return m;
}

class Parser {
 public:
  // `templates`: a body file, where `each`, `xs...` and `x[k]` are allowed.
  explicit Parser(std::string_view text, bool templates = false) : toks_(Lexer(text).tokens()), templates_(templates) {}

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
        opset_imports(fn.opset_imports);
      } else if (key.text == "doc_string") {
        expect_kind(Token::Kind::String, "a string");
      } else {
        fail(key, "unknown function header key '" + key.text + "' (domain, opset_import or doc_string)");
      }
    } while (accept(","));
    expect(">");
    fn.name = quotable_id();
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
    // Parameters may be typed (`float[N] x`); a Function keeps their names only.
    for (auto& v : value_infos()) fn.inputs.push_back(std::move(v.name));
    expect("=>");
    for (auto& v : value_infos()) fn.outputs.push_back(std::move(v.name));
    if (is("<")) value_infos("<", ">");  // value infos of the body: types are not kept
    expect("{");
    std::vector<Condition> active;
    guarded_nodes(fn.nodes, node_guards, active);
    return fn;
  }

  // Nodes up to the closing '}', with `when ... { }` blocks where `node_guards` is given.
  void guarded_nodes(std::vector<Node>& nodes, std::vector<std::vector<Condition>>* node_guards,
                     std::vector<Condition>& active) {
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
      nodes.push_back(starts_each() ? each_block() : node());
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
    if (cur().kind != Token::Kind::Int && cur().kind != Token::Kind::Float)
      fail(cur(), "expected a number, found " + spelling(cur()));
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
        out.push_back(element_suffix(quotable_id()));
      }
      if (accept(")")) return out;
      if (!accept(",")) fail(cur(), "expected ',' or ')', found " + spelling(cur()));
    }
  }

  // `(float[N] x, y)` in a signature, or the `<float[2] c = {1, 2}, float[N] v>` list after a graph's
  // outputs: types are optional where no initializer is given. `name = {…}` makes an initializer,
  // appended to `initializers` (an error where none is allowed).
  std::vector<ValueInfo> value_infos(std::string_view open = "(", std::string_view close = ")",
                                     std::vector<std::pair<std::string, Tensor>>* initializers = nullptr) {
    std::vector<ValueInfo> out;
    expect(open);
    if (accept(close)) return out;
    do {
      ValueInfo v;
      const Token& at = cur();
      if (starts_type()) v.type = type();
      v.name = element_suffix(quotable_id());
      if (accept("=")) {
        if (!initializers)
          fail(at, "an initializer ('" + v.name + "' = ...) is only allowed in a graph's inputs or initializer list");
        if (v.type.kind != TypeInfo::Kind::Tensor) fail(at, "initializer '" + v.name + "' needs a tensor type");
        if (is("[")) fail(cur(), "external data is not supported in the text syntax; write the values or use a .onnx file");
        std::vector<int64_t> dims;
        for (const Dim& d : v.type.shape.value_or(std::vector<Dim>{})) {
          if (!d.value) fail(at, "initializer '" + v.name + "' needs numeric dimensions");
          dims.push_back(*d.value);
        }
        if (!v.type.shape) fail(at, "initializer '" + v.name + "' needs a shape ('float[]' leaves the rank unknown)");
        initializers->emplace_back(v.name, tensor_values(at, v.type.elem, dims));
      }
      out.push_back(std::move(v));
    } while (accept(","));
    expect(close);
    return out;
  }

  // Whether a type starts here: `float x`, `float[2] x`, `seq(float) x`, `float "x"`.
  bool starts_type() const {
    if (cur().kind != Token::Kind::Id) return false;
    const Token& n = next();
    return n.kind == Token::Kind::Id || n.kind == Token::Kind::String ||
           (n.kind == Token::Kind::Punct && (n.text == "[" || n.text == "("));
  }

  // A type: `float` (a scalar), `float[]` (rank unknown), `float[N, ?, 3]`, `seq(T)`,
  // `optional(T)`, `map(int64, T)`, `sparse_tensor(float[2, 2])`.
  TypeInfo type() {
    const Token& t = expect_id();
    TypeInfo info;
    if (t.text == "seq" || t.text == "optional") {
      info.kind = t.text == "seq" ? TypeInfo::Kind::Sequence : TypeInfo::Kind::Optional;
      expect("(");
      info.inner = std::make_shared<TypeInfo>(type());
      expect(")");
    } else if (t.text == "map") {
      info.kind = TypeInfo::Kind::Map;
      expect("(");
      info.map_key = element_type(expect_id());
      expect(",");
      info.inner = std::make_shared<TypeInfo>(type());
      expect(")");
    } else if (t.text == "sparse_tensor") {
      expect("(");
      info = type();
      if (info.kind != TypeInfo::Kind::Tensor) fail(t, "sparse_tensor(...) needs a tensor type");
      info.kind = TypeInfo::Kind::SparseTensor;
      expect(")");
    } else if (t.text == "opaque") {
      fail(t, "opaque types are not supported");
    } else {
      info.kind = TypeInfo::Kind::Tensor;
      info.elem = element_type(t);
      info.shape = std::vector<Dim>{};  // no brackets: a scalar, as onnx's parser reads it
      if (is("[")) {
        auto d = dims();
        if (d.empty()) info.shape.reset();  // `float[]`: rank unknown
        else info.shape = std::move(d);
      }
    }
    return info;
  }

  static DType element_type(const Token& t) {
    DType type = dtype_from_name(t.text);
    if (type == DType::Undefined) fail(t, "unknown element type '" + t.text + "'");
    return type;
  }

  // `[2, N, ?]`.
  std::vector<Dim> dims() {
    std::vector<Dim> out;
    expect("[");
    if (accept("]")) return out;
    do {
      if (accept("?")) {
        out.emplace_back();
      } else if (cur().kind == Token::Kind::Id || cur().kind == Token::Kind::String) {
        out.push_back(Dim{std::nullopt, quotable_id()});
      } else {
        int64_t v = integer();
        if (v < 0) fail(cur(), "a dimension cannot be negative");
        out.push_back(Dim{v, ""});
      }
    } while (accept(","));
    expect("]");
    return out;
  }

  // A name: an identifier or a quoted string.
  std::string quotable_id() {
    if (cur().kind == Token::Kind::String) {
      std::string name = cur().text;
      advance();
      return name;
    }
    return expect_id().text;
  }

  std::vector<Node> node_block() {
    std::vector<Node> nodes;
    expect("{");
    while (!accept("}")) {
      if (at_end()) fail(cur(), "expected '}' before the end of the text");
      nodes.push_back(starts_each() ? each_block() : node());
    }
    return nodes;
  }

  bool starts_each() const { return templates_ && is_id("each") && next().kind == Token::Kind::Id; }

  // `each k in X [when sequence|tensor] { nodes }` (body files only): its nodes once per element of
  // the variadic formal X, kept as a pseudo-node for the body selection to expand
  // (reference/functions/function_bodies.h).
  Node each_block() {
    advance();
    Node n;
    n.op_type = std::string(kEachMarker);
    auto text_attr = [](const std::string& name, const std::string& value) {
      Attribute a;
      a.name = name;
      a.type = Attribute::Type::String;
      a.s = value;
      return a;
    };
    n.attributes.push_back(text_attr("var", expect_id().text));
    if (!is_id("in")) fail(cur(), "expected 'in' after the variable of 'each'");
    advance();
    n.attributes.push_back(text_attr("over", expect_id().text));
    std::string filter;
    if (is_id("when")) {
      advance();
      const Token& f = expect_id();
      if (f.text != "sequence" && f.text != "tensor")
        fail(f, "'each ... when' takes 'sequence' or 'tensor', not '" + f.text + "'");
      filter = f.text;
    }
    n.attributes.push_back(text_attr("filter", filter));
    Attribute body;
    body.name = "nodes";
    body.type = Attribute::Type::Graph;
    body.g = std::make_shared<Graph>();
    body.g->nodes = node_block();
    n.attributes.push_back(std::move(body));
    return n;
  }

  // In body files, a name in a list may be `xs...` (all elements of a variadic name) or `x[k]`
  // (element k of it, k the variable of an enclosing `each`).
  std::string element_suffix(std::string name) {
    if (!templates_) return name;
    if (is(".") && next().kind == Token::Kind::Punct && next().text == ".") {
      expect(".");
      expect(".");
      expect(".");
      return name + "...";
    }
    if (is("[") && next().kind == Token::Kind::Id) {
      expect("[");
      name += "[" + expect_id().text + "]";
      expect("]");
    }
    return name;
  }

  Node node() {
    Node n;
    if (accept("[")) {  // a node label: its name
      n.name = quotable_id();
      expect("]");
    }
    if (!is("=")) {
      do n.outputs.push_back(element_suffix(quotable_id()));
      while (accept(","));
    }
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
    attribute_list(n);
    n.inputs = name_list();
    if (n.attributes.empty()) attribute_list(n);  // the attributes may follow the inputs
    return n;
  }

  void attribute_list(Node& n) {
    if (!accept("<")) return;
    do n.attributes.push_back(attribute());
    while (accept(","));
    expect(">");
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
      // `$elem_type(X)`, `$elem_type(X[k])`, or `$elem_type(@g[k])`: output k of graph attribute g.
      std::string target = accept("@") ? "@" : "";
      target += expect_id().text;
      a.ref_attr_name = std::string(kElemTypeMarker) + element_suffix(target);
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
    } else if (t.kind == Token::Kind::Id &&
               (next().kind == Token::Kind::Id || next().kind == Token::Kind::String ||
                (next().kind == Token::Kind::Punct && (next().text == "[" || next().text == "{")))) {
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

  // `open v, v, ... close` of numbers or strings (a list or a tensor literal's values).
  std::vector<Token> literal_items(std::string_view open, std::string_view close, const std::string& what) {
    expect(open);
    std::vector<Token> items;
    if (accept(close)) return items;
    do {
      if (cur().kind != Token::Kind::Int && cur().kind != Token::Kind::Float && cur().kind != Token::Kind::String)
        fail(cur(), "expected " + what + ", found " + spelling(cur()));
      items.push_back(cur());
      advance();
    } while (accept(","));
    expect(close);
    return items;
  }

  void list(Attribute& a, Attribute::Type type) {
    const Token& open = cur();
    std::vector<Token> items = literal_items("[", "]", "a number or a string in a list");
    bool strings = !items.empty() && items[0].kind == Token::Kind::String;
    bool floats = false;
    for (const auto& it : items) {
      if ((it.kind == Token::Kind::String) != strings) fail(it, "a list mixes strings and numbers");
      floats = floats || it.kind == Token::Kind::Float;
    }
    if (type == Attribute::Type::Floats) floats = true;
    if (items.empty() && type == Attribute::Type::Undefined)
      fail(open, "an empty list needs a declared type (ints, floats or strings)");
    a.type = type != Attribute::Type::Undefined ? type
             : strings                          ? Attribute::Type::Strings
             : floats                           ? Attribute::Type::Floats
                                                : Attribute::Type::Ints;
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

  // `float[2] {1.0, 2.0}`, `int64 {3}` (a scalar), `bool[2] {1, 0}`, `float[2] name = {1, 2}` (the
  // name is the tensor's own and not kept).
  Tensor tensor() {
    const Token& t = cur();
    DType type = element_type(expect_id());
    std::vector<int64_t> shape;
    if (is("["))
      for (const Dim& d : dims()) {
        if (!d.value) fail(t, "a tensor literal needs numeric dimensions");
        shape.push_back(*d.value);
      }
    if (cur().kind == Token::Kind::Id || cur().kind == Token::Kind::String) quotable_id();
    accept("=");
    return tensor_values(t, type, shape);
  }

  // `{v, v, ...}` of a tensor of the given type and shape.
  Tensor tensor_values(const Token& at, DType type, const std::vector<int64_t>& shape) {
    std::vector<Token> items = literal_items("{", "}", "a tensor element");
    int64_t need = 0;
    try {
      need = shape_size(shape);  // checked before anything is allocated
    } catch (const Trap& e) {
      fail(at, e.what());
    }
    if (static_cast<int64_t>(items.size()) != need)
      fail(at, "the tensor literal has " + std::to_string(items.size()) + " elements, its shape needs " + std::to_string(need));
    Tensor out(type, shape);
    for (size_t i = 0; i < items.size(); ++i) store(out, static_cast<int64_t>(i), items[i]);
    return out;
  }

  // One element: strings into string tensors; integers (exactly) into integer and bool tensors;
  // any number into a floating tensor, rounded to nearest even as a cast from double would.
  static void store(Tensor& out, int64_t i, const Token& item) {
    DType type = out.dtype();
    if (type == DType::String) {
      if (item.kind != Token::Kind::String) fail(item, "expected a string element");
      out.data<std::string>()[i] = item.text;
      return;
    }
    if (item.kind == Token::Kind::String) fail(item, "expected a number");
    bool floating = is_float(type) || is_small_float(type);
    if (item.kind == Token::Kind::Float && !floating)
      fail(item, "a fractional element in a tensor of " + std::string(dtype_name(type)));
    if (type == DType::Complex64 || type == DType::Complex128) fail(item, "complex tensor literals are not supported");
    if (floating) {
      double d = std::strtod(item.text.c_str(), nullptr);
      if (is_small_type(type)) {
        visit_small_dtype(type, [&]<class T>() { out.data<T>()[i] = small_from_double<T>(d); });
      } else {
        visit_dtype(type, [&]<class T>() {
          if constexpr (support::is_floating_v<T>) out.data<T>()[i] = support::round_from_double<T>(d);
        });
      }
      return;
    }
    errno = 0;
    bool negative = item.text[0] == '-';
    long long v = negative ? std::strtoll(item.text.c_str(), nullptr, 10) : 0;
    unsigned long long u = negative ? 0 : std::strtoull(item.text.c_str(), nullptr, 10);
    if (errno == ERANGE) fail(item, "integer out of range: " + item.text);
    auto fits = [&](long double lo, long double hi) {
      long double x = negative ? static_cast<long double>(v) : static_cast<long double>(u);
      if (x < lo || x > hi) fail(item, item.text + " is out of the range of " + std::string(dtype_name(type)));
    };
    if (is_small_type(type)) {
      int bits = dtype_bits(type);
      bool is_signed = type == DType::Int4 || type == DType::Int2;
      fits(is_signed ? -(1 << (bits - 1)) : 0, is_signed ? (1 << (bits - 1)) - 1 : (1 << bits) - 1);
      visit_small_dtype(type, [&]<class T>() {
        if constexpr (is_small_int_v<T>) out.data<T>()[i] = small_int_from_integer<T>(negative ? v : static_cast<int64_t>(u));
      });
      return;
    }
    visit_dtype(type, [&]<class T>() {
      if constexpr (std::is_same_v<T, bool>) {
        fits(0, 1);
        out.data<bool>()[i] = u != 0;
      } else if constexpr (std::is_integral_v<T>) {
        fits(static_cast<long double>(std::numeric_limits<T>::min()), static_cast<long double>(std::numeric_limits<T>::max()));
        out.data<T>()[i] = negative ? static_cast<T>(v) : static_cast<T>(u);
      }
    });
  }

  // `name (inputs) => (outputs) { nodes }`: a graph-valued attribute.
  // A graph (the model's, or a graph-valued attribute): `name (inputs) => (outputs) <initializers
  // and value infos> { nodes }`.
  std::shared_ptr<Graph> graph() {
    auto g = std::make_shared<Graph>();
    g->name = quotable_id();
    g->inputs = value_infos("(", ")", &g->initializers);
    expect("=>");
    g->outputs = value_infos();
    if (is("<")) {
      size_t before = g->initializers.size();
      for (auto& v : value_infos("<", ">", &g->initializers)) {
        bool initializer = std::any_of(g->initializers.begin() + static_cast<std::ptrdiff_t>(before), g->initializers.end(),
                                       [&](const auto& init) { return init.first == v.name; });
        if (!initializer) g->value_info.push_back(std::move(v));
      }
    }
    g->nodes = node_block();
    for (size_t i = 0; i < g->nodes.size(); ++i) g->nodes[i].index = i;
    return g;
  }

  // `["" : 21, "ai.onnx.ml" : 3]`, the value of an `opset_import` header key.
  void opset_imports(std::map<std::string, int64_t>& out) {
    expect("[");
    if (accept("]")) return;
    do {
      std::string d = expect_kind(Token::Kind::String, "a domain string").text;
      expect(":");
      out[canonical_domain(d)] = integer();
    } while (accept(","));
    expect("]");
  }

  // `<ir_version: 10, opset_import: ["" : 21], producer_name: "x", ...>` before a model's graph.
  void model_header(Model& m) {
    expect("<");
    do {
      const Token& key = expect_id();
      expect(":");
      if (key.text == "ir_version") {
        m.ir_version = integer();
      } else if (key.text == "opset_import") {
        opset_imports(m.opset_imports);
      } else if (key.text == "producer_name") {
        m.producer = expect_kind(Token::Kind::String, "a string").text;
      } else if (key.text == "producer_version" || key.text == "domain" || key.text == "doc_string") {
        expect_kind(Token::Kind::String, "a string");
      } else if (key.text == "model_version") {
        integer();
      } else if (key.text == "metadata_props") {
        expect("[");
        if (!accept("]")) {
          do {
            expect_kind(Token::Kind::String, "a key string");
            expect(":");
            expect_kind(Token::Kind::String, "a value string");
          } while (accept(","));
          expect("]");
        }
      } else {
        fail(
            key,
            "unknown model header key '" + key.text +
                "' (ir_version, opset_import, producer_name, producer_version, domain, model_version, doc_string or metadata_props)");
      }
    } while (accept(","));
    expect(">");
  }

 public:
  Model model() {
    Model m;
    if (is("<")) model_header(m);
    m.graph = std::move(*graph());
    set_paths(m.graph, "main");
    while (!at_end()) m.functions.push_back(function());
    return m;
  }

 private:
  // Diagnostics name a subgraph by its path, as the protobuf loader does (subgraph_path in ir.h).
  static void set_paths(Graph& g, const std::string& path) {
    g.path = path;
    for (auto& n : g.nodes)
      for (auto& a : n.attributes) {
        if (a.g) set_paths(*a.g, subgraph_path(path, n, a.name));
        for (size_t i = 0; i < a.graphs.size(); ++i)
          set_paths(*a.graphs[i], subgraph_path(path, n, a.name, static_cast<int>(i)));
      }
  }

  std::vector<Token> toks_;
  size_t pos_ = 0;
  bool templates_;
};

}  // namespace

Model parse_model(std::string_view text) {
  Parser p(text);
  return p.model();
}

Function parse_function(std::string_view text) {
  Parser p(text);
  if (p.is_guard()) throw ParseError(p.line(), p.column(), "a guard ('when') is only allowed in a body file");
  Function fn = p.function();
  fn.sonnx_body = true;
  if (!p.at_end()) throw ParseError(p.line(), p.column(), "text after the function's closing '}'");
  return fn;
}

std::vector<Alternative> parse_alternatives(std::string_view text) {
  Parser p(text, true);
  std::vector<Alternative> out;
  do {
    Alternative a;
    a.line = p.line();
    a.guard = p.guard();
    a.fn = p.function(&a.node_guards);
    a.fn.sonnx_body = true;
    out.push_back(std::move(a));
  } while (!p.at_end());
  return out;
}

}  // namespace sonnx::text

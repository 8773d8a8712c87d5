// Literal transcriptions of spec/structure.mlw (module Graph) and spec/memory_plan.mlw (module
// Plan). Each function names the predicate it transcribes; keep them in step with the theory.
// Names are strings, the empty name is the absent one (Why3: name 0); "forall x" ranges over the
// finite universe of names mentioned by the graph and its scope (no other name can satisfy an
// antecedent that mentions the graph).
#include "structure_oracle.h"

#include <algorithm>

namespace sonnx::oracle {

namespace {

using Names = std::vector<std::string>;

// nmem x l
bool nmem(const std::string& x, const Names& l) { return std::find(l.begin(), l.end(), x) != l.end(); }

// nodup l: no present name occurs twice.
bool nodup(const Names& l) {
  for (size_t i = 0; i < l.size(); ++i)
    for (size_t j = i + 1; j < l.size(); ++j)
      if (present(l[i]) && l[i] == l[j]) return false;
  return true;
}

// The accessors of structure.mlw: inputs g, inits g, nn g, ins/outs (body g k), subs (body g k).
Names inputs(const Graph& g) {
  Names out;
  for (const auto& v : g.inputs) out.push_back(v.name);
  return out;
}
// Initializers, dense and sparse: both bind a name to a constant.
Names inits(const Graph& g) {
  Names out;
  for (const auto& [name, t] : g.initializers) out.push_back(name);
  for (const auto& s : g.sparse_initializers) out.push_back(s);
  return out;
}
Names outputs(const Graph& g) {
  Names out;
  for (const auto& v : g.outputs) out.push_back(v.name);
  return out;
}
size_t nn(const Graph& g) { return g.nodes.size(); }
const Names& ins(const Graph& g, size_t k) { return g.nodes[k].inputs; }
const Names& outs(const Graph& g, size_t k) { return g.nodes[k].outputs; }
std::vector<const Graph*> subs(const Graph& g, size_t k) {
  std::vector<const Graph*> out;
  for (const auto& a : g.nodes[k].attributes) {
    if (a.g) out.push_back(a.g.get());
    for (const auto& sg : a.graphs) out.push_back(sg.get());
  }
  return out;
}

// Every name mentioned by g, its nodes and (recursively) their subgraphs.
void mention(const Graph& g, std::set<std::string>& u) {
  for (const auto& x : inputs(g)) u.insert(x);
  for (const auto& x : inits(g)) u.insert(x);
  for (const auto& x : outputs(g)) u.insert(x);
  for (size_t k = 0; k < nn(g); ++k) {
    for (const auto& x : ins(g, k)) u.insert(x);
    for (const auto& x : outs(g, k)) u.insert(x);
    for (const Graph* s : subs(g, k)) mention(*s, u);
  }
}

// The universe "forall x" ranges over.
std::vector<std::string> universe(const Visible& outer, const Graph& g) {
  std::set<std::string> u(outer.begin(), outer.end());
  mention(g, u);
  return {u.begin(), u.end()};
}

bool is_node(const Graph& g, size_t k) { return k < nn(g); }

}  // namespace

// predicate present (x: name) = x <> 0
bool present(const std::string& x) { return !x.empty(); }

// predicate assigned g x = nmem x (inputs g) \/ nmem x (inits g) \/
//                          exists k. is_node g k /\ nmem x (outs (body g k))
bool assigned(const Graph& g, const std::string& x) {
  if (nmem(x, inputs(g)) || nmem(x, inits(g))) return true;
  for (size_t k = 0; k < nn(g); ++k)
    if (nmem(x, outs(g, k))) return true;
  return false;
}

// function extend outer g = fun x -> outer x \/ assigned g x
Visible extend(const Visible& outer, const Graph& g) {
  Visible out = outer;
  for (const auto& x : universe({}, g))
    if (assigned(g, x)) out.insert(x);
  return out;
}

// inductive captures graph name =
//   | cap_direct: is_node s k -> nmem x (ins (body s k)) -> present x -> not assigned s x -> captures s x
//   | cap_nested: is_node s k -> gmem t (subs (body s k)) -> captures t x -> not assigned s x -> captures s x
//   | cap_output: nmem x (outputs s) -> present x -> not assigned s x -> captures s x
// (Subgraphs nest finitely, so the recursion below is the least fixed point.)
bool captures(const Graph& s, const std::string& x) {
  for (const auto& o : outputs(s))
    if (o == x && present(x) && !assigned(s, x)) return true;
  for (size_t k = 0; k < nn(s); ++k) {
    if (nmem(x, ins(s, k)) && present(x) && !assigned(s, x)) return true;
    for (const Graph* t : subs(s, k))
      if (captures(*t, x) && !assigned(s, x)) return true;
  }
  return false;
}

// predicate node_reads g k x =
//   present x /\ (nmem x (ins (body g k)) \/ exists t. gmem t (subs (body g k)) /\ captures t x)
bool node_reads(const Graph& g, size_t k, const std::string& x) {
  if (!present(x)) return false;
  if (nmem(x, ins(g, k))) return true;
  for (const Graph* t : subs(g, k))
    if (captures(*t, x)) return true;
  return false;
}

// predicate dep g j k = is_node g j /\ is_node g k
//   /\ exists x. present x /\ nmem x (outs (body g j)) /\ node_reads g k x
bool dep(const Graph& g, size_t j, size_t k) {
  if (!is_node(g, j) || !is_node(g, k)) return false;
  for (const auto& x : outs(g, j))
    if (present(x) && node_reads(g, k, x)) return true;
  return false;
}

// predicate nodup_except (ex: names) (l: names) = match l with
//   | NNil -> true
//   | NCons x r -> (present x -> not nmem x ex -> not nmem x r) /\ nodup_except ex r end
//
// predicate ssa_flat (top: bool) (outer: visible) (g: graph) =
//   (forall x. present x -> assigned g x -> not outer x)
//   /\ nodup (inputs g)
//   /\ (if top then nodup_except (inputs g) (inits g)
//       else nodup (inits g) /\ (forall x. present x -> nmem x (inputs g) -> not nmem x (inits g)))
//   /\ (forall k x. is_node g k -> present x -> nmem x (outs (body g k)) ->
//      not nmem x (inputs g) /\ not nmem x (inits g))
//   /\ (forall j k x. is_node g j -> is_node g k -> present x ->
//      nmem x (outs (body g j)) -> nmem x (outs (body g k)) -> j = k)
//   /\ (forall k. is_node g k -> nodup (outs (body g k)))
bool ssa_flat(const Visible& outer, const Graph& g, bool top) {
  const auto u = universe(outer, g);
  for (const auto& x : u)
    if (present(x) && assigned(g, x) && outer.count(x)) return false;
  if (!nodup(inputs(g))) return false;
  if (top) {
    // nodup_except (inputs g) (inits g): only initializers that are not inputs' defaults must differ.
    Names own_inits;
    for (const auto& x : inits(g))
      if (!nmem(x, inputs(g))) own_inits.push_back(x);
    if (!nodup(own_inits)) return false;
  } else {
    if (!nodup(inits(g))) return false;
    for (const auto& x : u)
      if (present(x) && nmem(x, inputs(g)) && nmem(x, inits(g))) return false;
  }
  for (size_t k = 0; k < nn(g); ++k)
    for (const auto& x : u)
      if (present(x) && nmem(x, outs(g, k)) && (nmem(x, inputs(g)) || nmem(x, inits(g)))) return false;
  for (size_t j = 0; j < nn(g); ++j)
    for (size_t k = 0; k < nn(g); ++k)
      for (const auto& x : u)
        if (present(x) && nmem(x, outs(g, j)) && nmem(x, outs(g, k)) && j != k) return false;
  for (size_t k = 0; k < nn(g); ++k)
    if (!nodup(outs(g, k))) return false;
  return true;
}

// predicate defined_flat outer g =
//   forall k x. is_node g k -> node_reads g k x -> outer x \/ assigned g x
bool defined_flat(const Visible& outer, const Graph& g) {
  const auto u = universe(outer, g);
  for (size_t k = 0; k < nn(g); ++k)
    for (const auto& x : u)
      if (node_reads(g, k, x) && !(outer.count(x) || assigned(g, x))) return false;
  return true;
}

// predicate output_flat outer g =
//   forall x. nmem x (outputs g) -> present x /\ (outer x \/ assigned g x)
bool output_flat(const Visible& outer, const Graph& g) {
  for (const auto& x : outputs(g))
    if (!(present(x) && (outer.count(x) || assigned(g, x)))) return false;
  return true;
}

// predicate topo_flat outer g =
//   forall k x. is_node g k -> node_reads g k x ->
//     outer x \/ nmem x (inputs g) \/ nmem x (inits g) \/ exists j. 0 <= j < k /\ nmem x (outs (body g j))
bool topo_flat(const Visible& outer, const Graph& g) {
  const auto u = universe(outer, g);
  for (size_t k = 0; k < nn(g); ++k)
    for (const auto& x : u) {
      if (!node_reads(g, k, x)) continue;
      bool earlier = false;
      for (size_t j = 0; j < k; ++j) earlier = earlier || nmem(x, outs(g, j));
      if (!(outer.count(x) || nmem(x, inputs(g)) || nmem(x, inits(g)) || earlier)) return false;
    }
  return true;
}

// predicate walk g w len = len >= 1 /\ w len = w 0 /\ forall i. 0 <= i < len -> dep g (w i) (w (i + 1))
// predicate acyclic g = forall w len. not walk g w len
// A closed walk of length >= 1 exists iff some node reaches itself by one or more dependencies;
// reach[j][k] (a walk of length >= 1 from j to k) is the transitive closure of dep (Warshall).
bool acyclic(const Graph& g) {
  size_t n = nn(g);
  std::vector<std::vector<bool>> reach(n, std::vector<bool>(n, false));
  for (size_t j = 0; j < n; ++j)
    for (size_t k = 0; k < n; ++k) reach[j][k] = dep(g, j, k);
  for (size_t m = 0; m < n; ++m)
    for (size_t j = 0; j < n; ++j)
      for (size_t k = 0; k < n; ++k)
        if (reach[j][m] && reach[m][k]) reach[j][k] = true;
  for (size_t k = 0; k < n; ++k)
    if (reach[k][k]) return false;
  return true;
}

// inductive useful graph int =
//   | useful_out: is_node g k -> present x -> nmem x (outs (body g k)) -> nmem x (outputs g) -> useful g k
//   | useful_use: is_node g k -> is_node g j -> present x -> nmem x (outs (body g k)) ->
//                 node_reads g j x -> useful g j -> useful g k
// The least fixed point: apply both rules until nothing changes.
std::vector<bool> useful(const Graph& g) {
  size_t n = nn(g);
  std::vector<bool> u(n, false);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t k = 0; k < n; ++k) {
      if (u[k]) continue;
      bool now = false;
      for (const auto& x : outs(g, k)) {
        if (!present(x)) continue;
        if (nmem(x, outputs(g))) now = true;
        for (size_t j = 0; j < n; ++j)
          if (node_reads(g, j, x) && u[j]) now = true;
      }
      if (now) {
        u[k] = true;
        changed = true;
      }
    }
  }
  return u;
}

// predicate no_dead_node g = forall k. is_node g k -> useful g k
bool no_dead_node(const Graph& g) {
  auto u = useful(g);
  for (size_t k = 0; k < nn(g); ++k)
    if (!u[k]) return false;
  return true;
}

// inductive ssa bool visible graph =
//   | ssa_intro: ssa_flat top outer g -> (forall k s. is_node g k -> gmem s (subs (body g k)) ->
//                  ssa false (extend outer g) s) -> ssa top outer g
bool ssa(const Visible& outer, const Graph& g, bool top) {
  if (!ssa_flat(outer, g, top)) return false;
  for (size_t k = 0; k < nn(g); ++k)
    for (const Graph* s : subs(g, k))
      if (!ssa(extend(outer, g), *s, false)) return false;
  return true;
}

// inductive well_defined visible graph =
//   | defined_intro: defined_flat outer g -> output_flat outer g ->
//       (forall k s. is_node g k -> gmem s (subs (body g k)) -> well_defined (extend outer g) s) ->
//       well_defined outer g
bool well_defined(const Visible& outer, const Graph& g) {
  if (!defined_flat(outer, g) || !output_flat(outer, g)) return false;
  for (size_t k = 0; k < nn(g); ++k)
    for (const Graph* s : subs(g, k))
      if (!well_defined(extend(outer, g), *s)) return false;
  return true;
}

// inductive topo_sorted visible graph =
//   | topo_intro: topo_flat outer g -> (forall k s. is_node g k -> gmem s (subs (body g k)) ->
//                   topo_sorted (extend outer g) s) -> topo_sorted outer g
bool topo_sorted(const Visible& outer, const Graph& g) {
  if (!topo_flat(outer, g)) return false;
  for (size_t k = 0; k < nn(g); ++k)
    for (const Graph* s : subs(g, k))
      if (!topo_sorted(extend(outer, g), *s)) return false;
  return true;
}

namespace {
void levels(const Graph& g, const Visible& outer, std::vector<LevelVerdict>& out, bool top) {
  LevelVerdict v;
  v.path = g.path;
  v.graph = &g;
  v.outer = outer;
  v.ssa = ssa_flat(outer, g, top);
  v.defined = defined_flat(outer, g);
  v.output = output_flat(outer, g);
  v.topo = topo_flat(outer, g);
  v.acyclic = acyclic(g);
  for (bool u : useful(g)) v.dead_nodes += u ? 0 : 1;
  out.push_back(std::move(v));
  for (size_t k = 0; k < nn(g); ++k)
    for (const Graph* s : subs(g, k)) levels(*s, extend(outer, g), out, false);
}
}  // namespace

std::vector<LevelVerdict> level_verdicts(const Graph& main) {
  std::vector<LevelVerdict> out;
  levels(main, {}, out, true);
  return out;
}

// predicate conflict first last a b = first a <= last b /\ first b <= last a
bool conflict(const std::vector<int64_t>& first, const std::vector<int64_t>& last, size_t a, size_t b) {
  return first[a] <= last[b] && first[b] <= last[a];
}

// predicate separated off size a b = off a + size a <= off b \/ off b + size b <= off a
bool separated(const std::vector<int64_t>& off, const std::vector<int64_t>& size, size_t a, size_t b) {
  return off[a] + size[a] <= off[b] || off[b] + size[b] <= off[a];
}

// predicate valid_plan m first last size off =
//   (forall t. 0 <= t < m -> 0 <= off t)
//   /\ (forall a b. 0 <= a < m -> 0 <= b < m -> a <> b -> conflict first last a b -> separated off size a b)
bool valid_plan(const std::vector<int64_t>& first, const std::vector<int64_t>& last, const std::vector<int64_t>& size,
                const std::vector<int64_t>& off) {
  size_t m = first.size();
  for (size_t t = 0; t < m; ++t)
    if (!(0 <= off[t])) return false;
  for (size_t a = 0; a < m; ++a)
    for (size_t b = 0; b < m; ++b)
      if (a != b && conflict(first, last, a, b) && !separated(off, size, a, b)) return false;
  return true;
}

// predicate within m size off arena = forall t. 0 <= t < m -> off t + size t <= arena
bool within(const std::vector<int64_t>& size, const std::vector<int64_t>& off, int64_t arena) {
  for (size_t t = 0; t < size.size(); ++t)
    if (!(off[t] + size[t] <= arena)) return false;
  return true;
}

}  // namespace sonnx::oracle

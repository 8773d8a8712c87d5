"""Conformance-test models of the opset-27 / ai.onnx.preview operators for make_cli_fixtures.py:
CausalConvWithState-27 (bias, past_state, silu), LinearAttention-27 (gated_delta, grouped heads,
past_state) and ai.onnx.preview FlexAttention-1 (grouped heads, a causal-mask score_mod graph).
Each expected output is computed here with plain numpy loops in float64 from the ONNX 1.22
operator text, independently of sonnx's kernels.
"""
import numpy as np
from onnx import TensorProto, helper as h, numpy_helper

IR_VERSION = 10


def model_bytes(nodes, inputs, outputs, opsets, initializer=()):
    g = h.make_graph(nodes, "g", inputs, outputs, initializer=list(initializer))
    m = h.make_model(g, opset_imports=[h.make_opsetid(d, v) for d, v in opsets])
    m.ir_version = IR_VERSION
    return m.SerializeToString()


def fvi(name, shape):
    return h.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def causal_conv():
    rng = np.random.default_rng(11)
    b, c, length, k = 2, 3, 5, 4
    x = rng.uniform(-1, 1, (b, c, length)).astype(np.float32)
    w = rng.uniform(-1, 1, (c, 1, k)).astype(np.float32)
    bias = rng.uniform(-1, 1, (c,)).astype(np.float32)
    past = rng.uniform(-1, 1, (b, c, k - 1)).astype(np.float32)
    y = np.zeros((b, c, length), np.float32)
    state = np.zeros((b, c, k - 1), np.float32)
    for bi in range(b):
        for ci in range(c):
            seq = list(past[bi, ci].astype(np.float64)) + list(x[bi, ci].astype(np.float64))
            for t in range(length):
                s = float(bias[ci]) + sum(float(w[ci, 0, j]) * seq[t + j] for j in range(k))
                s = float(np.float32(s))  # the convolution in T, then the activation
                y[bi, ci, t] = s / (1.0 + np.exp(-s))
            state[bi, ci] = seq[-(k - 1):]
    node = h.make_node("CausalConvWithState", ["X", "W", "B", "P"], ["Y", "S"], name="conv", activation="silu")
    m = model_bytes([node], [fvi("X", [b, c, length]), fvi("W", [c, 1, k]), fvi("B", [c]), fvi("P", [b, c, k - 1])],
                    [fvi("Y", [b, c, length]), fvi("S", [b, c, k - 1])], [("", 27)])
    return m, [("X", x), ("W", w), ("B", bias), ("P", past)], [("Y", y), ("S", state)]


def linear_attention():
    rng = np.random.default_rng(12)
    b, t, hq, hkv, dk, dv = 1, 3, 4, 2, 2, 3
    q = rng.uniform(-1, 1, (b, t, hq * dk)).astype(np.float32)
    k = rng.uniform(-1, 1, (b, t, hkv * dk)).astype(np.float32)
    v = rng.uniform(-1, 1, (b, t, hkv * dv)).astype(np.float32)
    past = rng.uniform(-0.5, 0.5, (b, hkv, dk, dv)).astype(np.float32)
    decay = -rng.uniform(0, 0.5, (b, t, hkv * dk)).astype(np.float32)
    beta = rng.uniform(0, 1, (b, t, hkv)).astype(np.float32)
    scale = 1 / np.sqrt(dk)
    y = np.zeros((b, t, hq * dv), np.float64)
    state = past.astype(np.float64).copy()
    for bi in range(b):
        for ti in range(t):
            for g in range(hkv):
                kk = k[bi, ti, g * dk:(g + 1) * dk].astype(np.float64)
                vv = v[bi, ti, g * dv:(g + 1) * dv].astype(np.float64)
                e = np.exp(decay[bi, ti, g * dk:(g + 1) * dk].astype(np.float64))
                decayed = state[bi, g] * e[:, None]
                written = float(beta[bi, ti, g]) * (vv - decayed.T @ kk)
                state[bi, g] = decayed + np.outer(kk, written)
                for hh in range(g * (hq // hkv), (g + 1) * (hq // hkv)):
                    qq = q[bi, ti, hh * dk:(hh + 1) * dk].astype(np.float64)
                    y[bi, ti, hh * dv:(hh + 1) * dv] = scale * (qq @ state[bi, g])
    node = h.make_node("LinearAttention", ["Q", "K", "V", "P", "G", "E"], ["Y", "S"], name="la",
                       q_num_heads=hq, kv_num_heads=hkv)
    m = model_bytes([node],
                    [fvi("Q", [b, t, hq * dk]), fvi("K", [b, t, hkv * dk]), fvi("V", [b, t, hkv * dv]),
                     fvi("P", [b, hkv, dk, dv]), fvi("G", [b, t, hkv * dk]), fvi("E", [b, t, hkv])],
                    [fvi("Y", [b, t, hq * dv]), fvi("S", [b, hkv, dk, dv])], [("", 27)])
    return (m, [("Q", q), ("K", k), ("V", v), ("P", past), ("G", decay), ("E", beta)],
            [("Y", y.astype(np.float32)), ("S", state.astype(np.float32))])


def flex_attention():
    rng = np.random.default_rng(13)
    b, hq, hkv, length, e, ev = 1, 2, 1, 3, 4, 2
    q = rng.uniform(-1, 1, (b, hq, length, e)).astype(np.float32)
    k = rng.uniform(-1, 1, (b, hkv, length, e)).astype(np.float32)
    v = rng.uniform(-1, 1, (b, hkv, length, ev)).astype(np.float32)
    mask = np.where(np.arange(length)[None, :] > np.arange(length)[:, None], -np.inf, 0).astype(np.float32)
    score_mod = h.make_graph(
        [h.make_node("Constant", [], ["m"], value=numpy_helper.from_array(mask.reshape(1, 1, length, length), "m")),
         h.make_node("Add", ["x", "m"], ["y"])], "score_mod", [fvi("x", [b, hq, length, length])],
        [fvi("y", [b, hq, length, length])])
    y = np.zeros((b, hq, length, ev), np.float64)
    for hh in range(hq):
        for i in range(length):
            s = [float(q[0, hh, i].astype(np.float64) @ k[0, 0, j].astype(np.float64)) / np.sqrt(e) for j in range(i + 1)]
            p = np.exp(np.array(s) - max(s))
            p /= p.sum()
            y[0, hh, i] = sum(p[j] * v[0, 0, j].astype(np.float64) for j in range(i + 1))
    node = h.make_node("FlexAttention", ["Q", "K", "V"], ["Y"], name="flex", domain="ai.onnx.preview",
                       score_mod=score_mod)
    m = model_bytes([node], [fvi("Q", [b, hq, length, e]), fvi("K", [b, hkv, length, e]), fvi("V", [b, hkv, length, ev])],
                    [fvi("Y", [b, hq, length, ev])], [("", 27), ("ai.onnx.preview", 1)])
    return m, [("Q", q), ("K", k), ("V", v)], [("Y", y.astype(np.float32))]


MODELS = [("test_causal_conv_with_state_silu_past", causal_conv),
          ("test_linear_attention_gated_delta_gqa_past", linear_attention),
          ("test_flexattention_gqa_causal_score_mod", flex_attention)]

// main.c, the generated model's test driver (emit/driver.h says what the program does). Most of it
// is the same in every model: a reader of TensorProto (protobuf wire format: dims packed or not,
// data_type, raw_data or the typed field of the element type, external data and segments refused,
// unknown fields skipped by wire type) and of .npy (versions 1.0 to 3.0, little- or big-endian
// descr, C order only), and a TensorProto writer (dims, data_type, name, raw_data little-endian).
// Every element type is held as c_storage_type() says (include/sonnx/small_types.h): float16 and
// bfloat16 as their 16 bits, the float8 and float4 types as their bit pattern in a byte, int4/uint4/
// int2/uint2 one per byte (sign-extended for int4/int2). As the reference reads a TensorProto
// (reference/model/tensor_proto.cpp, packing.cpp): float16/bfloat16 come in raw_data or as bits in
// int32_data; the float8/float4/4-/2-bit types in raw_data or in int32_data, one int32 in [0, 255]
// per serialized byte; the 4- and 2-bit types packed two or four to a byte, the first element in
// the low bits, the last byte's unused bits ignored. .npy as spec/element_types.md says: float16 is
// "<f2"; the types numpy lacks are one byte per element under a one-field structured descr naming
// the type ([('float8e4m3fn', '|u1')], [('int4', '|i1')]), a byte that is no value of a 4- or 2-bit
// type refused; bfloat16 has no .npy form. Outputs are written in raw_data, packed for the 4- and
// 2-bit types, as sonnx writes them.
// complex64 and complex128 (sonnx_complex64 / sonnx_complex128, { re, im }) are read and written as
// their two parts, each a float or a double: raw_data, or float_data / double_data holding the
// parts in pairs (reference/model/tensor_proto.cpp's copy_complex), and .npy "<c8" / "<c16" (or
// big-endian). Strings (sonnx_string, a view { data, size }) come from string_data only (field 6,
// repeated bytes; raw_data is ignored for them, as the reference does): each view points into the
// input file's buffer, which the driver keeps to the end of the run; a string output is written
// as string_data. A string .npy is refused ("string tensors are read from .pb only"), as sonnx's
// own .npy reader refuses string arrays.
// Values are moved through their bit patterns (uint64_t, truncated to the element's width and
// copied with memcpy), so no conversion in the driver is undefined or implementation-defined:
// a typed field's value becomes the element as the reference's static_cast makes it (modulo
// 2^bits for the integers, non-zero for bool), and a boolean is stored as 0 or 1. The rest is the
// model's: its static buffers, the tables of inputs and outputs, the binding of PREFIX_inputs and
// PREFIX_outputs, the weights loader (with weights in a file) and main.
#include "driver.h"

#include <cctype>

#include "emit_op.h"

namespace sonnx::emit {

namespace {

// The part of main.c that is the same for every model (no PREFIX in it). SONNX_DRV_MODEL is
// defined before it.
const char* const emit_driver_library = R"SONNXC(
/* ---- The driver's readers and writer (the same in every main.c). ---- */

#define SONNX_DRV_MAX_RANK 64

/* A graph input or output: its element type (ONNX TensorProto.DataType), shape and buffer. */
typedef struct {
  const char* name;
  int type;
  int rank;
  const int64_t* dims;
  size_t count; /* elements */
  void* data;
} sonnx_drv_tensor;

static const char* sonnx_drv_type_name(uint64_t type) {
  static const char* const names[] = {"undefined", "float", "uint8", "int8", "uint16", "int16",
                                      "int32", "int64", "string", "bool", "float16", "double",
                                      "uint32", "uint64", "complex64", "complex128", "bfloat16",
                                      "float8e4m3fn", "float8e4m3fnuz", "float8e5m2",
                                      "float8e5m2fnuz", "uint4", "int4", "float4e2m1",
                                      "float8e8m0", "uint2", "int2"};
  if (type < (uint64_t)(sizeof names / sizeof names[0])) return names[type];
  return "an unknown element type";
}

/* Bytes per element in memory of the types the driver holds as numbers (0 for any other, string
   among them): float16 and bfloat16 as their bits, the float8 and float4 types as their bit
   pattern in a byte, the 4- and 2-bit integers one per byte (sign-extended for int4 and int2),
   complex64 and complex128 as their two parts. */
static size_t sonnx_drv_elem_size(int type) {
  switch (type) {
    case 14: return 8u;                              /* complex64: two floats */
    case 15: return 16u;                             /* complex128: two doubles */
    case 2: case 3: case 9: return 1u;               /* uint8, int8, bool */
    case 17: case 18: case 19: case 20: case 24: return 1u; /* float8e4m3fn, e4m3fnuz, e5m2, e5m2fnuz, e8m0 */
    case 21: case 22: case 23: case 25: case 26: return 1u; /* uint4, int4, float4e2m1, uint2, int2 */
    case 4: case 5: case 10: case 16: return 2u;     /* uint16, int16, float16, bfloat16 */
    case 1: case 6: case 12: return 4u;              /* float, int32, uint32 */
    case 7: case 11: case 13: return 8u;             /* int64, double, uint64 */
    default: return 0u;
  }
}

/* Bits of one element of the 4- and 2-bit types in a TensorProto, where they are packed (two or
   four to a byte, the first in the low bits); 0 for every other type. */
static unsigned sonnx_drv_packed_bits(int type) {
  switch (type) {
    case 21: case 22: case 23: return 4u; /* uint4, int4, float4e2m1 */
    case 25: case 26: return 2u;          /* uint2, int2 */
    default: return 0u;
  }
}

/* A complex element is read and written as two parts: the type of a part (float for complex64,
   double for complex128; the type itself for the others) and the parts of one element. */
static int sonnx_drv_part_type(int type) {
  if (type == 14) return 1;
  if (type == 15) return 11;
  return type;
}

static size_t sonnx_drv_parts(int type) { return (type == 14 || type == 15) ? 2u : 1u; }

/* Strings: the model's sonnx_string (PREFIX.h defines it when the model has strings), a view of
   bytes the driver keeps (an input file's buffer). */
#ifdef SONNX_STRING_DEFINED
static void sonnx_drv_set_string(void* data, size_t i, const unsigned char* bytes, size_t n) {
  sonnx_string* s = (sonnx_string*)data + i;
  s->data = (const char*)bytes;
  s->size = n;
}

static const unsigned char* sonnx_drv_get_string(const void* data, size_t i, size_t* n) {
  const sonnx_string* s = (const sonnx_string*)data + i;
  *n = s->size;
  return (const unsigned char*)s->data;
}
#else
/* The model has no strings: never called. */
static void sonnx_drv_set_string(void* data, size_t i, const unsigned char* bytes, size_t n) {
  (void)data;
  (void)i;
  (void)bytes;
  (void)n;
}

static const unsigned char* sonnx_drv_get_string(const void* data, size_t i, size_t* n) {
  (void)data;
  (void)i;
  *n = 0u;
  return NULL;
}
#endif

/* The types of ONNX IR 9 to 13 (float8, float4e2m1, the 4- and 2-bit integers): their int32_data
   holds one value per serialized byte. */
static int sonnx_drv_is_small(int type) { return type >= 17 && type <= 26; }

/* Bytes of `count` elements of `type` in a TensorProto's raw_data: packed for the 4- and 2-bit
   types, the last byte's unused bits zero. */
static size_t sonnx_drv_serialized_size(int type, size_t count) {
  unsigned bits = sonnx_drv_packed_bits(type);
  if (bits != 0u) return (count * bits + 7u) / 8u;
  return count * sonnx_drv_elem_size(type);
}

/* The in-memory byte of a 4- or 2-bit field (the low bits of `field`), sign-extended for int4 and
   int2, as the reference's widen_field (reference/model/packing.cpp). */
static uint8_t sonnx_drv_widen(int type, uint64_t field) {
  unsigned bits = sonnx_drv_packed_bits(type);
  unsigned v = (unsigned)(field & (uint64_t)((1u << bits) - 1u));
  if ((type == 22 || type == 26) && v >= (1u << (bits - 1u))) v |= 0xFFu << bits;
  return (uint8_t)v;
}

/* Element i of a buffer of `type` set from its bit pattern (the low bits of `bits`; for the 4-
   and 2-bit types, the field in the low bits). */
static void sonnx_drv_store(void* data, size_t i, int type, uint64_t bits) {
  unsigned char* p = (unsigned char*)data;
  switch (sonnx_drv_elem_size(type)) {
    case 1: {
      uint8_t v;
      if (type == 9) v = (uint8_t)(bits != 0u);
      else if (sonnx_drv_packed_bits(type) != 0u) v = sonnx_drv_widen(type, bits);
      else v = (uint8_t)bits;
      memcpy(p + i, &v, 1u);
      break;
    }
    case 2: {
      uint16_t v = (uint16_t)bits;
      memcpy(p + 2u * i, &v, 2u);
      break;
    }
    case 4: {
      uint32_t v = (uint32_t)bits;
      memcpy(p + 4u * i, &v, 4u);
      break;
    }
    default: memcpy(p + 8u * i, &bits, 8u); break;
  }
}

/* The bit pattern of element i of a buffer of `type`. */
static uint64_t sonnx_drv_load(const void* data, size_t i, int type) {
  const unsigned char* p = (const unsigned char*)data;
  switch (sonnx_drv_elem_size(type)) {
    case 1: {
      uint8_t v;
      memcpy(&v, p + i, 1u);
      return (uint64_t)v;
    }
    case 2: {
      uint16_t v;
      memcpy(&v, p + 2u * i, 2u);
      return (uint64_t)v;
    }
    case 4: {
      uint32_t v;
      memcpy(&v, p + 4u * i, 4u);
      return (uint64_t)v;
    }
    default: {
      uint64_t v;
      memcpy(&v, p + 8u * i, 8u);
      return v;
    }
  }
}

/* n bytes (n <= 8) as an unsigned number, little-endian or big-endian. */
static uint64_t sonnx_drv_bytes(const unsigned char* p, size_t n, int big) {
  uint64_t v = 0u;
  size_t j;
  for (j = 0u; j < n; ++j) v = (v << 8) | (uint64_t)(big ? p[j] : p[n - 1u - j]);
  return v;
}

static int sonnx_drv_host_big_endian(void) {
  const uint16_t one = 1u;
  unsigned char first;
  memcpy(&first, &one, 1u);
  return first == 0u;
}

static void sonnx_drv_print_shape(FILE* f, const int64_t* dims, int rank) {
  int i;
  fputc('[', f);
  for (i = 0; i < rank; ++i) fprintf(f, i == 0 ? "%lld" : ",%lld", (long long)dims[i]);
  fputc(']', f);
}

static void sonnx_drv_where(int k, const sonnx_drv_tensor* t, const char* path) {
  fprintf(stderr, "%s: input %d ('%s') from '%s': ", SONNX_DRV_MODEL, k, t->name, path);
}

static int sonnx_drv_bad(int k, const sonnx_drv_tensor* t, const char* path, const char* what) {
  sonnx_drv_where(k, t, path);
  fprintf(stderr, "%s\n", what);
  return 1;
}

static int sonnx_drv_check_type(int k, const sonnx_drv_tensor* t, const char* path, uint64_t type,
                                const char* how) {
  if (type == (uint64_t)t->type) return 0;
  sonnx_drv_where(k, t, path);
  fprintf(stderr, "element type %s%s, the model's input is %s\n", sonnx_drv_type_name(type), how,
          sonnx_drv_type_name((uint64_t)t->type));
  return 1;
}

static int sonnx_drv_check_shape(int k, const sonnx_drv_tensor* t, const char* path, const int64_t* dims,
                                 int rank) {
  int i, same = rank == t->rank;
  for (i = 0; same && i < rank; ++i) same = dims[i] == t->dims[i];
  if (same) return 0;
  sonnx_drv_where(k, t, path);
  fputs("shape ", stderr);
  sonnx_drv_print_shape(stderr, dims, rank);
  fputs(", the model's input has shape ", stderr);
  sonnx_drv_print_shape(stderr, t->dims, t->rank);
  fputc('\n', stderr);
  return 1;
}

static int sonnx_drv_check_bytes(int k, const sonnx_drv_tensor* t, const char* path, size_t have, size_t need,
                                 const char* where) {
  if (have == need) return 0;
  sonnx_drv_where(k, t, path);
  fprintf(stderr, "%lu bytes of %s, the shape needs %lu\n", (unsigned long)have, where, (unsigned long)need);
  return 1;
}

/* ---- TensorProto (protobuf wire format) ---- */

static int sonnx_drv_varint(const unsigned char** p, const unsigned char* end, uint64_t* v) {
  uint64_t r = 0u;
  unsigned shift = 0u;
  while (*p < end && shift < 64u) {
    unsigned char b = **p;
    ++*p;
    r |= (uint64_t)(b & 0x7Fu) << shift;
    if ((b & 0x80u) == 0u) {
      *v = r;
      return 1;
    }
    shift += 7u;
  }
  return 0;
}

/* One value of a numeric field: kind 0 varint, 5 fixed32, 1 fixed64 (the wire types). */
static int sonnx_drv_scalar(const unsigned char** p, const unsigned char* end, unsigned kind, uint64_t* v) {
  size_t n;
  if (kind == 0u) return sonnx_drv_varint(p, end, v);
  n = kind == 5u ? 4u : 8u;
  if ((size_t)(end - *p) < n) return 0;
  *v = sonnx_drv_bytes(*p, n, 0);
  *p += n;
  return 1;
}

typedef struct {
  /* the first pass: what the message holds */
  int64_t dims[SONNX_DRV_MAX_RANK];
  int rank;
  uint64_t data_type;
  const unsigned char* raw;
  size_t raw_len;
  int has_raw;
  size_t counts[16]; /* values in each repeated numeric field (and string_data), by field number */
  /* the second pass: the values of field `want` decoded into `out` */
  unsigned want;
  int type;
  void* out;
  size_t n, limit;
} sonnx_drv_proto;

static const char* sonnx_drv_value(sonnx_drv_proto* pr, unsigned field, uint64_t bits) {
  if (pr->want != 0u) {
    if (field == pr->want) {
      unsigned w = sonnx_drv_packed_bits(pr->type), j;
      if (sonnx_drv_is_small(pr->type) && bits > 255u) return "a value of int32_data is not a byte (0 to 255)";
      if (w != 0u) { /* a byte of packed 4- or 2-bit elements, the first in the low bits */
        for (j = 0u; j < 8u / w; ++j)
          if (pr->n * (8u / w) + j < pr->limit) sonnx_drv_store(pr->out, pr->n * (8u / w) + j, pr->type, bits >> (w * j));
      } else if (pr->n < pr->limit) {
        sonnx_drv_store(pr->out, pr->n, pr->type, bits);
      }
      ++pr->n;
    }
    return NULL;
  }
  if (field == 1u) {
    if (pr->rank >= SONNX_DRV_MAX_RANK) return "more than 64 dimensions";
    if (bits > (uint64_t)INT64_MAX) return "a negative dimension";
    pr->dims[pr->rank] = (int64_t)bits;
    ++pr->rank;
  } else {
    ++pr->counts[field];
  }
  return NULL;
}

/* Walks a TensorProto's fields; NULL when well-formed and supported, else what is wrong. */
static const char* sonnx_drv_walk(sonnx_drv_proto* pr, const unsigned char* p, const unsigned char* end) {
  while (p < end) {
    uint64_t key, v;
    unsigned field, wire, kind;
    const char* err;
    if (!sonnx_drv_varint(&p, end, &key)) return "truncated or malformed (a field's key)";
    if ((key >> 3) == 0u || (key >> 3) > 536870911u) return "malformed (a field number out of range)";
    field = (unsigned)(key >> 3);
    wire = (unsigned)(key & 7u);
    if (wire == 3u || wire == 4u) return "malformed (protobuf groups)";
    if (wire != 0u && wire != 1u && wire != 2u && wire != 5u) return "malformed (an unknown wire type)";
    /* the repeated numeric fields: dims, int32_data, int64_data, uint64_data (varint),
       float_data (fixed32), double_data (fixed64) */
    kind = 9u;
    if (field == 1u || field == 5u || field == 7u || field == 11u) kind = 0u;
    else if (field == 4u) kind = 5u;
    else if (field == 10u) kind = 1u;
    if (kind != 9u && wire == 2u) { /* packed */
      const unsigned char* q;
      if (!sonnx_drv_varint(&p, end, &v)) return "truncated (a length)";
      if (v > (uint64_t)(end - p)) return "truncated (a field runs past the end of the file)";
      q = p + (size_t)v;
      while (p < q) {
        if (!sonnx_drv_scalar(&p, q, kind, &v)) return "malformed (a packed field)";
        if ((err = sonnx_drv_value(pr, field, v)) != NULL) return err;
      }
      continue;
    }
    if (kind != 9u) {
      if (wire != kind) return "malformed (a field of the wrong wire type)";
      if (!sonnx_drv_scalar(&p, end, kind, &v)) return "truncated (a value)";
      if ((err = sonnx_drv_value(pr, field, v)) != NULL) return err;
      continue;
    }
    if (field == 3u) return "segmented tensors (field segment) are not supported";
    if (field == 13u) return "external data is not supported";
    if (wire == 2u) {
      if (!sonnx_drv_varint(&p, end, &v)) return "truncated (a length)";
      if (v > (uint64_t)(end - p)) return "truncated (a field runs past the end of the file)";
      if (field == 9u) {
        pr->raw = p;
        pr->raw_len = (size_t)v;
        pr->has_raw = 1;
      } else if (field == 6u) { /* string_data: one string; the second pass makes it a view */
        if (pr->want == 6u) {
          if (pr->n < pr->limit) sonnx_drv_set_string(pr->out, pr->n, p, (size_t)v);
          ++pr->n;
        } else if (pr->want == 0u) {
          ++pr->counts[6];
        }
      } else if (field == 2u || field == 14u) {
        return "malformed (a field of the wrong wire type)";
      }
      p += (size_t)v;
      continue;
    }
    if ((field == 2u || field == 14u) && wire != 0u) return "malformed (a field of the wrong wire type)";
    if (field == 6u || field == 8u || field == 9u) return "malformed (a field of the wrong wire type)";
    if (!sonnx_drv_scalar(&p, end, wire, &v)) return "truncated (a value)";
    if (field == 2u) pr->data_type = v;
    if (field == 14u && v == 1u) return "external data (data_location EXTERNAL) is not supported";
  }
  return NULL;
}

static const char* sonnx_drv_field_name(unsigned field) {
  switch (field) {
    case 4: return "float_data";
    case 5: return "int32_data";
    case 7: return "int64_data";
    case 10: return "double_data";
    default: return "uint64_data";
  }
}

/* The typed field that holds values of `type` when raw_data is absent (as the reference reads it:
   float16 and bfloat16 as their bits, the float8 types as their bit pattern, and the 4- and 2-bit
   types as packed bytes, all in int32_data). */
static unsigned sonnx_drv_typed_field(int type) {
  switch (type) {
    case 1: case 14: return 4u;   /* float, complex64 (pairs) */
    case 11: case 15: return 10u; /* double, complex128 (pairs) */
    case 7: return 7u;
    case 12: case 13: return 11u;
    default: return 5u; /* int32, int16, int8, uint16, uint8, bool */
  }
}

/* A string tensor: its string_data (raw_data, if any, is not read, as the reference reads it),
   one view per element into buf, which the caller keeps. */
static int sonnx_drv_read_strings(int k, const sonnx_drv_tensor* t, const char* path, const unsigned char* buf,
                                  size_t len, sonnx_drv_proto* pr) {
  const char* err;
  if (pr->counts[6] != t->count) {
    sonnx_drv_where(k, t, path);
    fprintf(stderr, "%lu values in string_data, the shape needs %lu\n", (unsigned long)pr->counts[6],
            (unsigned long)t->count);
    return 1;
  }
  pr->want = 6u;
  pr->type = t->type;
  pr->out = t->data;
  pr->limit = t->count;
  if ((err = sonnx_drv_walk(pr, buf, buf + len)) != NULL) return sonnx_drv_bad(k, t, path, err);
  return 0;
}

static int sonnx_drv_read_pb(int k, const sonnx_drv_tensor* t, const char* path, const unsigned char* buf,
                             size_t len) {
  sonnx_drv_proto pr;
  const char* err;
  /* a complex element is two parts, each stored as a float or a double */
  int pt = sonnx_drv_part_type(t->type);
  size_t i, ps = sonnx_drv_elem_size(pt), parts = t->count * sonnx_drv_parts(t->type), values;
  unsigned w = sonnx_drv_packed_bits(t->type);
  memset(&pr, 0, sizeof pr);
  if ((err = sonnx_drv_walk(&pr, buf, buf + len)) != NULL) return sonnx_drv_bad(k, t, path, err);
  if (sonnx_drv_check_type(k, t, path, pr.data_type, "")) return 1;
  if (sonnx_drv_check_shape(k, t, path, pr.dims, pr.rank)) return 1;
  if (t->type == 8) return sonnx_drv_read_strings(k, t, path, buf, len, &pr);
  if (pr.has_raw) {
    if (sonnx_drv_check_bytes(k, t, path, pr.raw_len, sonnx_drv_serialized_size(t->type, t->count), "raw_data")) return 1;
    if (w != 0u) { /* packed: element i in bits w*(i % (8/w)) and up of byte i / (8/w) */
      for (i = 0u; i < t->count; ++i)
        sonnx_drv_store(t->data, i, t->type, (uint64_t)pr.raw[i / (8u / w)] >> (w * (unsigned)(i % (8u / w))));
      return 0;
    }
    for (i = 0u; i < parts; ++i) sonnx_drv_store(t->data, i, pt, sonnx_drv_bytes(pr.raw + i * ps, ps, 0));
    return 0;
  }
  if (t->count == 0u) return 0;
  pr.want = sonnx_drv_typed_field(t->type);
  /* the small types: one int32 per serialized byte (packed for the 4- and 2-bit ones); complex:
     the parts, in pairs */
  values = sonnx_drv_is_small(t->type) ? sonnx_drv_serialized_size(t->type, t->count) : parts;
  if (pr.counts[pr.want] != values) {
    sonnx_drv_where(k, t, path);
    fprintf(stderr, "%lu values in %s (and no raw_data), the shape needs %lu\n", (unsigned long)pr.counts[pr.want],
            sonnx_drv_field_name(pr.want), (unsigned long)values);
    return 1;
  }
  pr.type = pt;
  pr.out = t->data;
  pr.limit = parts;
  if ((err = sonnx_drv_walk(&pr, buf, buf + len)) != NULL) return sonnx_drv_bad(k, t, path, err);
  return 0;
}

/* ---- .npy ---- */

/* Where the value of 'key' (given with its quotes) starts in a .npy header, or NULL. */
static const char* sonnx_drv_npy_key(const char* h, const char* key) {
  const char* s = strstr(h, key);
  if (s == NULL) return NULL;
  s += strlen(key);
  while (*s == ' ' || *s == '\t') ++s;
  if (*s != ':') return NULL;
  ++s;
  while (*s == ' ' || *s == '\t') ++s;
  return s;
}

static const char* sonnx_drv_npy_find(const char* h, const char* key1, const char* key2) {
  const char* s = sonnx_drv_npy_key(h, key1);
  return s != NULL ? s : sonnx_drv_npy_key(h, key2);
}

/* A one-field structured descr [('NAME', 'FORMAT')] starting at s (blanks between the parts, either
   quote, a trailing comma), which is how sonnx writes the types numpy lacks (spec/element_types.md):
   copied into descr[32] as "[('NAME', 'FORMAT')]"; NULL or what is wrong. */
static const char* sonnx_drv_npy_field(const char* s, char* descr) {
  static const char* const unsupported =
      "structured .npy dtypes are not supported (but one field named by a small ONNX type, such as "
      "[('float8e4m3fn', '|u1')])";
  char name[16];
  char format[7];
  char* part[2];
  size_t cap[2];
  int j;
  part[0] = name;
  part[1] = format;
  cap[0] = sizeof name;
  cap[1] = sizeof format;
  ++s; /* '[' */
  while (*s == ' ' || *s == '\t') ++s;
  if (*s != '(') return unsupported;
  ++s;
  for (j = 0; j < 2; ++j) {
    char quote;
    size_t n = 0u;
    while (*s == ' ' || *s == '\t') ++s;
    if (j == 1) {
      if (*s != ',') return unsupported;
      ++s;
      while (*s == ' ' || *s == '\t') ++s;
    }
    quote = *s;
    if (quote != '\'' && quote != '"') return unsupported;
    for (++s; *s != quote; ++s) {
      if (*s == '\0' || n + 1u >= cap[j]) return unsupported;
      part[j][n++] = *s;
    }
    part[j][n] = '\0';
    ++s;
  }
  while (*s == ' ' || *s == '\t') ++s;
  if (*s != ')') return unsupported;
  ++s;
  while (*s == ' ' || *s == '\t') ++s;
  if (*s == ',') ++s;
  while (*s == ' ' || *s == '\t') ++s;
  if (*s != ']') return unsupported;
  sprintf(descr, "[('%s', '%s')]", name, format); /* at most 15 + 6 + 10 characters */
  return NULL;
}

/* The descr (copied into descr[32]), C order, and shape of a .npy header; NULL or what is wrong. */
static const char* sonnx_drv_npy_header(const char* h, char* descr, int64_t* dims, int* rank) {
  const char* s = sonnx_drv_npy_find(h, "'descr'", "\"descr\"");
  char quote;
  size_t n = 0u;
  if (s == NULL) return "malformed .npy header (no descr)";
  if (*s == '[') {
    const char* err = sonnx_drv_npy_field(s, descr);
    if (err != NULL) return err;
  } else {
    quote = *s;
    if (quote != '\'' && quote != '"') return "malformed .npy header (descr)";
    for (++s; *s != quote; ++s) {
      if (*s == '\0' || n + 1u >= 32u) return "malformed .npy header (descr)";
      descr[n++] = *s;
    }
    descr[n] = '\0';
  }
  s = sonnx_drv_npy_find(h, "'fortran_order'", "\"fortran_order\"");
  if (s != NULL && strncmp(s, "False", 5u) != 0) {
    if (strncmp(s, "True", 4u) == 0) return "Fortran-order .npy arrays are not supported";
    return "malformed .npy header (fortran_order)";
  }
  s = sonnx_drv_npy_find(h, "'shape'", "\"shape\"");
  if (s == NULL || *s != '(') return "malformed .npy header (no shape)";
  ++s;
  *rank = 0;
  for (;;) {
    int64_t v = 0;
    while (*s == ' ' || *s == '\t') ++s;
    if (*s == ')') break;
    if (*s < '0' || *s > '9') return "malformed .npy header (shape)";
    while (*s >= '0' && *s <= '9') {
      int64_t d = (int64_t)(*s - '0');
      if (v > (INT64_MAX - d) / 10) return "malformed .npy header (a dimension out of range)";
      v = 10 * v + d;
      ++s;
    }
    if (*s == 'L') ++s;
    if (*rank >= SONNX_DRV_MAX_RANK) return "more than 64 dimensions";
    dims[*rank] = v;
    ++*rank;
    while (*s == ' ' || *s == '\t') ++s;
    if (*s == ',') {
      ++s;
      continue;
    }
    if (*s != ')') return "malformed .npy header (shape)";
    break;
  }
  return NULL;
}

/* The ONNX element type of a .npy descr such as "<f4", or of a one-field structured descr naming
   a small type, "[('int4', '|i1')]" ("|i1" for int4 and int2, "|u1" for the others: one byte per
   element, as in memory) (0 when there is none), and its byte order. */
static int sonnx_drv_npy_type(const char* descr, int* big) {
  static const char* const fields[10] = {
      "[('float8e4m3fn', '|u1')]", "[('float8e4m3fnuz', '|u1')]", "[('float8e5m2', '|u1')]",
      "[('float8e5m2fnuz', '|u1')]", "[('uint4', '|u1')]", "[('int4', '|i1')]", "[('float4e2m1', '|u1')]",
      "[('float8e8m0', '|u1')]", "[('uint2', '|u1')]", "[('int2', '|i1')]"};
  char order = descr[0], kind;
  const char* s = descr;
  int size = 0, j;
  *big = 0;
  if (descr[0] == '[') {
    for (j = 0; j < 10; ++j)
      if (strcmp(descr, fields[j]) == 0) return 17 + j; /* float8e4m3fn (17) to int2 (26) */
    return 0;
  }
  if (order == '<' || order == '>' || order == '|' || order == '=') ++s;
  else order = '|';
  kind = *s++;
  if (*s < '1' || *s > '9') return 0;
  while (*s >= '0' && *s <= '9' && size < 100) size = 10 * size + (*s++ - '0');
  if (*s != '\0') return 0;
  *big = order == '>' || (order == '=' && sonnx_drv_host_big_endian());
  if (kind == 'f' && size == 4) return 1;
  if (kind == 'f' && size == 8) return 11;
  if (kind == 'f' && size == 2) return 10;
  if (kind == 'i' && size == 1) return 3;
  if (kind == 'i' && size == 2) return 5;
  if (kind == 'i' && size == 4) return 6;
  if (kind == 'i' && size == 8) return 7;
  if (kind == 'u' && size == 1) return 2;
  if (kind == 'u' && size == 2) return 4;
  if (kind == 'u' && size == 4) return 12;
  if (kind == 'u' && size == 8) return 13;
  if (kind == 'b' && size == 1) return 9;
  if (kind == 'c' && size == 8) return 14;
  if (kind == 'c' && size == 16) return 15;
  return 0;
}

static int sonnx_drv_read_npy(int k, const sonnx_drv_tensor* t, const char* path, const unsigned char* buf,
                              size_t len) {
  /* a complex element is two parts, each in the file's byte order */
  int pt = sonnx_drv_part_type(t->type);
  size_t hlen, start, i, es = sonnx_drv_elem_size(t->type), ps = sonnx_drv_elem_size(pt);
  size_t parts = t->count * sonnx_drv_parts(t->type);
  char* h;
  char descr[32];
  char how[64];
  const char* err;
  int64_t dims[SONNX_DRV_MAX_RANK];
  int rank = 0, type, big = 0;
  if (len < 10u || memcmp(buf, "\223NUMPY", 6u) != 0) return sonnx_drv_bad(k, t, path, "not a .npy file");
  if (t->type == 8) return sonnx_drv_bad(k, t, path, "string tensors are read from .pb only");
  if (buf[6] == 1u) {
    hlen = (size_t)buf[8] | ((size_t)buf[9] << 8);
    start = 10u;
  } else if (buf[6] == 2u || buf[6] == 3u) {
    if (len < 12u) return sonnx_drv_bad(k, t, path, "truncated .npy header");
    hlen = (size_t)sonnx_drv_bytes(buf + 8, 4u, 0);
    start = 12u;
  } else {
    return sonnx_drv_bad(k, t, path, "unsupported .npy version (not 1.0, 2.0 or 3.0)");
  }
  if (hlen > len - start) return sonnx_drv_bad(k, t, path, "truncated .npy header");
  h = (char*)malloc(hlen + 1u);
  if (h == NULL) return sonnx_drv_bad(k, t, path, "out of memory");
  memcpy(h, buf + start, hlen);
  h[hlen] = '\0';
  descr[0] = '\0';
  err = sonnx_drv_npy_header(h, descr, dims, &rank);
  free(h);
  if (err != NULL) return sonnx_drv_bad(k, t, path, err);
  type = sonnx_drv_npy_type(descr, &big);
  if (type == 0) {
    sonnx_drv_where(k, t, path);
    fprintf(stderr, "unsupported .npy dtype '%s'\n", descr);
    return 1;
  }
  sprintf(how, " (.npy dtype '%s')", descr);
  if (sonnx_drv_check_type(k, t, path, (uint64_t)type, how)) return 1;
  if (sonnx_drv_check_shape(k, t, path, dims, rank)) return 1;
  start += hlen;
  if (sonnx_drv_check_bytes(k, t, path, len - start, t->count * es, "data after the .npy header")) return 1;
  if (sonnx_drv_packed_bits(t->type) != 0u) /* one byte per element, which must be a value of the type */
    for (i = 0u; i < t->count; ++i)
      if (sonnx_drv_widen(t->type, (uint64_t)buf[start + i]) != buf[start + i]) {
        sonnx_drv_where(k, t, path);
        fprintf(stderr, "element %lu (byte %u) is not a valid %s value\n", (unsigned long)i, (unsigned)buf[start + i],
                sonnx_drv_type_name((uint64_t)t->type));
        return 1;
      }
  for (i = 0u; i < parts; ++i) sonnx_drv_store(t->data, i, pt, sonnx_drv_bytes(buf + start + i * ps, ps, big));
  return 0;
}

/* ---- files ---- */

/* A whole file, malloc'd. 0: read; -1: cannot be opened (errno says why); 1: failed, said. */
static int sonnx_drv_read_file(const char* path, unsigned char** data, size_t* size) {
  FILE* f = fopen(path, "rb");
  unsigned char* buf = NULL;
  size_t cap = 0u, len = 0u, n;
  if (f == NULL) return -1;
  for (;;) {
    if (len == cap) {
      size_t want = cap == 0u ? (size_t)65536u : 2u * cap;
      unsigned char* grown = want > cap ? (unsigned char*)realloc(buf, want) : NULL;
      if (grown == NULL) {
        fprintf(stderr, "%s: '%s' is too large to read\n", SONNX_DRV_MODEL, path);
        free(buf);
        fclose(f);
        return 1;
      }
      buf = grown;
      cap = want;
    }
    n = fread(buf + len, 1u, cap - len, f);
    len += n;
    if (n == 0u) break;
  }
  if (ferror(f)) {
    fprintf(stderr, "%s: cannot read '%s'\n", SONNX_DRV_MODEL, path);
    free(buf);
    fclose(f);
    return 1;
  }
  fclose(f);
  *data = buf;
  *size = len;
  return 0;
}

/* dir/name, malloc'd (NULL when out of memory). */
static char* sonnx_drv_join(const char* dir, const char* name) {
  size_t a = strlen(dir), b = strlen(name);
  char* s = (char*)malloc(a + b + 2u);
  if (s == NULL) return NULL;
  memcpy(s, dir, a);
  if (a > 0u && dir[a - 1u] != '/') s[a++] = '/';
  memcpy(s + a, name, b + 1u);
  return s;
}

static int sonnx_drv_decode(int k, const sonnx_drv_tensor* t, const char* path, const unsigned char* buf,
                            size_t len) {
  if (len >= 6u && memcmp(buf, "\223NUMPY", 6u) == 0) return sonnx_drv_read_npy(k, t, path, buf, len);
  return sonnx_drv_read_pb(k, t, path, buf, len);
}

/* Input k from `file`, or else from DIR/input_K.pb or DIR/input_K.npy. */
static int sonnx_drv_read_input(int k, const sonnx_drv_tensor* t, const char* dir, const char* file) {
  unsigned char* buf = NULL;
  size_t len = 0u;
  char name[48];
  char* path;
  int rc, why;
  if (file != NULL) {
    rc = sonnx_drv_read_file(file, &buf, &len);
    if (rc < 0) {
      fprintf(stderr, "%s: input %d ('%s'): cannot open '%s': %s\n", SONNX_DRV_MODEL, k, t->name, file,
              strerror(errno));
      return 1;
    }
    if (rc > 0) return 1;
    rc = sonnx_drv_decode(k, t, file, buf, len);
    if (rc != 0 || t->type != 8) free(buf); /* a string input's views point into buf: kept to the end */
    return rc;
  }
  sprintf(name, "input_%d.pb", k);
  path = sonnx_drv_join(dir, name);
  if (path == NULL) return sonnx_drv_bad(k, t, name, "out of memory");
  rc = sonnx_drv_read_file(path, &buf, &len);
  if (rc < 0) {
    why = errno;
    free(path);
    sprintf(name, "input_%d.npy", k);
    path = sonnx_drv_join(dir, name);
    if (path == NULL) return sonnx_drv_bad(k, t, name, "out of memory");
    rc = sonnx_drv_read_file(path, &buf, &len);
    if (rc < 0) {
      fprintf(stderr, "%s: input %d ('%s'): no input_%d.pb nor input_%d.npy can be read in '%s': %s\n",
              SONNX_DRV_MODEL, k, t->name, k, k, dir, strerror(why));
      free(path);
      return 1;
    }
  }
  if (rc == 0) {
    rc = sonnx_drv_decode(k, t, path, buf, len);
    if (rc != 0 || t->type != 8) free(buf); /* a string input's views point into buf: kept to the end */
  }
  free(path);
  return rc;
}

static int sonnx_drv_put_varint(FILE* f, uint64_t v) {
  do {
    unsigned b = (unsigned)(v & 0x7Fu);
    v >>= 7;
    if (v != 0u) b |= 0x80u;
    if (fputc((int)b, f) == EOF) return 0;
  } while (v != 0u);
  return 1;
}

static uint64_t sonnx_drv_varint_size(uint64_t v) {
  uint64_t n = 1u;
  while (v >= 0x80u) {
    v >>= 7;
    ++n;
  }
  return n;
}

/* OUTPUT_DIR/output_K.pb: a TensorProto with dims, data_type, name and raw_data (little-endian;
   the 4- and 2-bit types packed, the first element in the low bits; complex as its parts), or for
   strings string_data, as sonnx writes them (the fields in the order of their numbers). */
static int sonnx_drv_write_output(int k, const sonnx_drv_tensor* t, const char* dir) {
  char name[48];
  char* path;
  FILE* f;
  int pt = sonnx_drv_part_type(t->type), strings = t->type == 8;
  size_t i, j, ps = sonnx_drv_elem_size(pt), parts = t->count * sonnx_drv_parts(t->type), name_len = strlen(t->name);
  size_t bytes = sonnx_drv_serialized_size(t->type, t->count);
  unsigned w = sonnx_drv_packed_bits(t->type);
  uint64_t dims_len = 0u;
  int ok = 1, closed;
  sprintf(name, "output_%d.pb", k);
  path = sonnx_drv_join(dir, name);
  if (path == NULL) {
    fprintf(stderr, "%s: out of memory\n", SONNX_DRV_MODEL);
    return 1;
  }
  f = fopen(path, "wb");
  if (f == NULL) {
    fprintf(stderr, "%s: output %d ('%s'): cannot create '%s': %s\n", SONNX_DRV_MODEL, k, t->name, path,
            strerror(errno));
    free(path);
    return 1;
  }
  for (i = 0u; i < (size_t)t->rank; ++i) dims_len += sonnx_drv_varint_size((uint64_t)t->dims[i]);
  if (t->rank > 0) {
    ok = ok && fputc(0x0A, f) != EOF && sonnx_drv_put_varint(f, dims_len); /* 1: dims, packed */
    for (i = 0u; ok && i < (size_t)t->rank; ++i) ok = sonnx_drv_put_varint(f, (uint64_t)t->dims[i]);
  }
  ok = ok && fputc(0x10, f) != EOF && sonnx_drv_put_varint(f, (uint64_t)t->type); /* 2: data_type */
  for (i = 0u; ok && strings && i < t->count; ++i) { /* 6: string_data, one per element */
    size_t n;
    const unsigned char* s = sonnx_drv_get_string(t->data, i, &n);
    ok = fputc(0x32, f) != EOF && sonnx_drv_put_varint(f, (uint64_t)n);
    if (ok && n > 0u) ok = fwrite(s, 1u, n, f) == n;
  }
  ok = ok && fputc(0x42, f) != EOF && sonnx_drv_put_varint(f, (uint64_t)name_len);  /* 8: name */
  ok = ok && fwrite(t->name, 1u, name_len, f) == name_len;
  if (!strings) ok = ok && fputc(0x4A, f) != EOF && sonnx_drv_put_varint(f, (uint64_t)bytes); /* 9: raw_data */
  if (w != 0u) {
    for (i = 0u; ok && i < bytes; ++i) { /* 8/w elements to a byte, the last byte padded with zero bits */
      uint64_t byte = 0u;
      for (j = 0u; j < 8u / w && i * (8u / w) + j < t->count; ++j)
        byte |= (sonnx_drv_load(t->data, i * (8u / w) + j, t->type) & (uint64_t)((1u << w) - 1u)) << (w * j);
      ok = fputc((int)byte, f) != EOF;
    }
  }
  for (i = 0u; ok && !strings && w == 0u && i < parts; ++i) {
    uint64_t bits = sonnx_drv_load(t->data, i, pt);
    for (j = 0u; ok && j < ps; ++j) ok = fputc((int)((bits >> (8u * j)) & 0xFFu), f) != EOF;
  }
  ok = ok && !ferror(f);
  closed = fclose(f) == 0;
  if (!ok || !closed) {
    fprintf(stderr, "%s: output %d ('%s'): cannot write '%s'\n", SONNX_DRV_MODEL, k, t->name, path);
    free(path);
    return 1;
  }
  free(path);
  return 0;
}

static void sonnx_drv_list(FILE* f, const char* what, const sonnx_drv_tensor* ts, int n) {
  int k;
  for (k = 0; k < n; ++k) {
    fprintf(f, "  %s %d '%s': %s ", what, k, ts[k].name, sonnx_drv_type_name((uint64_t)ts[k].type));
    sonnx_drv_print_shape(f, ts[k].dims, ts[k].rank);
    fputc('\n', f);
  }
}

/* ---- The model's (PREFIX) part. ---- */
)SONNXC";

// `s` as a C string literal (c_string: printable ASCII as it is, but " \ and ?, other bytes as
// 3-digit octal).
std::string emit_driver_c_string(const std::string& s) { return c_string(s); }

std::string emit_driver_shape_text(const Shape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

// The static buffer and dims of each tensor, and the table `table` of them.
std::string emit_driver_tensors(const std::vector<DriverTensor>& ts, const std::string& what, const std::string& table) {
  std::string decls, rows;
  for (size_t k = 0; k < ts.size(); ++k) {
    const DriverTensor& t = ts[k];
    const char* ctype = c_storage_type(t.dtype);  // EmitRefused for a type the driver cannot hold
    const size_t bytes = dtype_size(t.dtype);     // complex: two parts of 4 or 8 bytes; string: a view
    if (t.dtype != DType::String && bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 &&
        !(t.dtype == DType::Complex128 && bytes == 16))
      throw EmitRefused("the test driver cannot hold " + what + " '" + t.name + "' of element type " +
                        std::string(dtype_name(t.dtype)));
    const int64_t count = shape_size(t.shape);
    const std::string id = "sonnx_drv_" + what.substr(0, what == "input" ? 2 : 3) + std::to_string(k);
    decls += "/* " + what + " " + std::to_string(k) + " \"" + c_comment(t.name) + "\": " + std::string(dtype_name(t.dtype)) +
             " " + emit_driver_shape_text(t.shape) + " */\n";
    decls += "static " + std::string(ctype) + " " + id + "[" + std::to_string(count > 0 ? count : 1) + "];\n";
    std::string dims;
    for (size_t i = 0; i < t.shape.size(); ++i) dims += (i ? ", " : "") + std::to_string(t.shape[i]);
    decls += "static const int64_t " + id + "_dims[" + std::to_string(t.shape.empty() ? 1 : t.shape.size()) + "] = {" +
             (t.shape.empty() ? "0" : dims) + "};\n";
    rows += "  {" + emit_driver_c_string(t.name) + ", " + std::to_string(static_cast<int>(t.dtype)) + ", " +
            std::to_string(t.shape.size()) + ", " + id + "_dims, " + std::to_string(count) + "u, " + id + "},\n";
  }
  if (ts.empty()) rows = "  {\"\", 0, 0, NULL, 0u, NULL}, /* none */\n";
  return decls + "static const sonnx_drv_tensor " + table + "[" + std::to_string(ts.empty() ? 1 : ts.size()) + "] = {\n" + rows +
         "};\n";
}

}  // namespace

std::string driver_source(const std::string& prefix, const std::vector<DriverTensor>& inputs,
                          const std::vector<DriverTensor>& outputs, bool weights_from_file) {
  const std::string P = prefix;
  std::string U = prefix;  // the header's macros: PREFIX in capitals
  for (char& c : U) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const std::string n_in = std::to_string(inputs.size()), n_out = std::to_string(outputs.size());
  std::string s;
  s += "/* main.c: the test driver of the model " + c_comment(P) + " (" + c_comment(P) +
       ".h), written by sonnx emit-c.\n"
       "\n"
       "   prog [MODEL] INPUT_DIR OUTPUT_DIR   reads INPUT_DIR/input_K.pb (TensorProto) or input_K.npy for\n"
       "                                       the K-th input, writes OUTPUT_DIR/output_K.pb (TensorProto)\n"
       "                                       for the K-th output (sonnx's process protocol; MODEL is\n"
       "                                       ignored)\n"
       "   prog -o OUTPUT_DIR FILE...          the inputs as .pb or .npy files, in order\n"
       "\n"
       "   Each input's element type and shape are checked against the model's. Exit status: 0 done,\n"
       "   1 an error (said on stderr), 2 a usage error. C99; no allocation but to read files. */\n";
  s +=
      "#include <errno.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <time.h>\n\n";
  s += "#include " + emit_driver_c_string(P + ".h") + "\n\n";
  s += "#define SONNX_DRV_MODEL " + emit_driver_c_string(P) + "\n";
  s += emit_driver_library;
  s += "\n#define SONNX_DRV_N_INPUTS " + n_in + "\n#define SONNX_DRV_N_OUTPUTS " + n_out + "\n\n";
  s += emit_driver_tensors(inputs, "input", "sonnx_drv_inputs") + "\n";
  s += emit_driver_tensors(outputs, "output", "sonnx_drv_outputs") + "\n";

  s += "static void sonnx_drv_bind(" + P + "_inputs* in, " + P + "_outputs* out) {\n";
  s += "  memset(in, 0, sizeof *in);\n  memset(out, 0, sizeof *out);\n";
  for (size_t k = 0; k < inputs.size(); ++k) s += "  in->" + inputs[k].field + " = sonnx_drv_in" + std::to_string(k) + ";\n";
  for (size_t k = 0; k < outputs.size(); ++k) s += "  out->" + outputs[k].field + " = sonnx_drv_out" + std::to_string(k) + ";\n";
  s += "}\n\n";

  s += "static void sonnx_drv_usage(FILE* f, const char* prog) {\n"
       "  fprintf(f, \"usage: %s [MODEL] INPUT_DIR OUTPUT_DIR\\n       %s -o OUTPUT_DIR FILE...\\n\", prog, prog);\n"
       "  fprintf(f, \"Runs the model %s (generated by sonnx emit-c) on INPUT_DIR/input_K.pb (TensorProto) or\\n\", "
       "SONNX_DRV_MODEL);\n"
       "  fputs(\"input_K.npy for its K-th input (or on the FILEs, .pb or .npy, in order) and writes\\n\", f);\n"
       "  fputs(\"OUTPUT_DIR/output_K.pb (TensorProto) for its K-th output. MODEL is ignored.\\n\", f);\n"
       "  sonnx_drv_list(f, \"input\", sonnx_drv_inputs, SONNX_DRV_N_INPUTS);\n"
       "  sonnx_drv_list(f, \"output\", sonnx_drv_outputs, SONNX_DRV_N_OUTPUTS);\n";
  if (weights_from_file)
    s += "  fprintf(f, \"Weights: from $SONNX_WEIGHTS if set, else %s beside the program, else in the current "
         "directory.\\n\", " +
         U + "_WEIGHTS_FILE);\n";
  s += "  fputs(\"Exit status: 0 done, 1 an error (said on stderr), 2 a usage error.\\n\", f);\n}\n\n";

  if (weights_from_file) {
    s += "/* The weights into the arena's first bytes: $SONNX_WEIGHTS, else " + c_comment(P) +
         "_WEIGHTS_FILE beside the\n"
         "   program (argv[0]'s directory), else in the current directory. */\n"
         "static int sonnx_drv_weights(const char* argv0, void* arena) {\n"
         "  const char* env = getenv(\"SONNX_WEIGHTS\");\n"
         "  const char* slash = strrchr(argv0, '/');\n"
         "  char* beside = NULL;\n"
         "  const char* path = NULL;\n"
         "  FILE* f;\n"
         "  int rc;\n"
         "  if (env != NULL && env[0] != '\\0') {\n"
         "    f = fopen(env, \"rb\");\n"
         "    if (f == NULL) {\n"
         "      fprintf(stderr, \"%s: cannot open the weights file '%s' ($SONNX_WEIGHTS): %s\\n\", SONNX_DRV_MODEL, env,\n"
         "              strerror(errno));\n"
         "      return 1;\n"
         "    }\n"
         "    fclose(f);\n"
         "    path = env;\n"
         "  } else {\n"
         "    if (slash != NULL) {\n"
         "      size_t n = (size_t)(slash - argv0) + 1u, m = strlen(" +
         U +
         "_WEIGHTS_FILE);\n"
         "      beside = (char*)malloc(n + m + 1u);\n"
         "      if (beside == NULL) {\n"
         "        fprintf(stderr, \"%s: out of memory\\n\", SONNX_DRV_MODEL);\n"
         "        return 1;\n"
         "      }\n"
         "      memcpy(beside, argv0, n);\n"
         "      memcpy(beside + n, " +
         U +
         "_WEIGHTS_FILE, m + 1u);\n"
         "      if ((f = fopen(beside, \"rb\")) != NULL) {\n"
         "        fclose(f);\n"
         "        path = beside;\n"
         "      }\n"
         "    }\n"
         "    if (path == NULL && (f = fopen(" +
         U +
         "_WEIGHTS_FILE, \"rb\")) != NULL) {\n"
         "      fclose(f);\n"
         "      path = " +
         U +
         "_WEIGHTS_FILE;\n"
         "    }\n"
         "    if (path == NULL) {\n"
         "      fprintf(stderr, \"%s: the weights file %s is neither beside the program%s%s%s nor in the current \"\n"
         "              \"directory; set SONNX_WEIGHTS to its path\\n\", SONNX_DRV_MODEL, " +
         U +
         "_WEIGHTS_FILE,\n"
         "              beside != NULL ? \" (\" : \"\", beside != NULL ? beside : \"\", beside != NULL ? \")\" : \"\");\n"
         "      free(beside);\n"
         "      return 1;\n"
         "    }\n"
         "  }\n"
         "  rc = " +
         P +
         "_load_weights(arena, path);\n"
         "  if (rc != 0) fprintf(stderr, \"%s: cannot load the weights from '%s' (" +
         c_comment(P) +
         "_load_weights returned %d)\\n\", SONNX_DRV_MODEL, path, rc);\n"
         "  free(beside);\n"
         "  return rc != 0;\n"
         "}\n\n";
  }

  // SONNX_REPEAT=N (bench/emit-c-speed.sh): N more runs after the first, each timed with clock()
  // (processor time, which is the run's time for this single-threaded code); the median and the
  // fastest go to stderr.
  s += "/* SONNX_REPEAT=N: N timed runs more (at most 1000); their median and minimum on stderr. */\n"
       "static void sonnx_drv_time(const " +
       P + "_inputs* in, " + P +
       "_outputs* out, void* arena) {\n"
       "  static double ms[1000];\n"
       "  const char* text = getenv(\"SONNX_REPEAT\");\n"
       "  long n = text != NULL ? strtol(text, NULL, 10) : 0L;\n"
       "  long i, j;\n"
       "  if (n <= 0) return;\n"
       "  if (n > 1000) n = 1000;\n"
       "  for (i = 0; i < n; ++i) {\n"
       "    clock_t start = clock();\n"
       "    (void)" +
       P +
       "_run(in, out, arena);\n"
       "    ms[i] = 1000.0 * (double)(clock() - start) / (double)CLOCKS_PER_SEC;\n"
       "    for (j = i; j > 0 && ms[j - 1] > ms[j]; --j) {\n"
       "      double t = ms[j];\n"
       "      ms[j] = ms[j - 1];\n"
       "      ms[j - 1] = t;\n"
       "    }\n"
       "  }\n"
       "  fprintf(stderr, \"%s: %ld runs, median %.3f ms, min %.3f ms\\n\", SONNX_DRV_MODEL, n, ms[n / 2], ms[0]);\n"
       "}\n\n";
  s += "int main(int argc, char** argv) {\n"
       "  /* the arena, aligned to 64 bytes inside an over-allocated array */\n"
       "  static unsigned char arena_store[" +
       U +
       "_ARENA_BYTES + 64];\n"
       "  void* arena = arena_store + (size_t)((64u - (uintptr_t)(void*)arena_store % 64u) % 64u);\n"
       "  " +
       P +
       "_inputs inputs;\n"
       "  " +
       P +
       "_outputs outputs;\n"
       "  const char* prog = argc > 0 && argv[0] != NULL ? argv[0] : \"" +
       P +
       "\";\n"
       "  const char* in_dir = NULL;\n"
       "  const char* out_dir = NULL;\n"
       "  char** files = NULL;\n"
       "  int k, rc;\n"
       "  if (argc == 2 && (strcmp(argv[1], \"--help\") == 0 || strcmp(argv[1], \"-h\") == 0)) {\n"
       "    sonnx_drv_usage(stdout, prog);\n"
       "    return 0;\n"
       "  }\n"
       "  if (argc >= 3 && strcmp(argv[1], \"-o\") == 0) {\n"
       "    out_dir = argv[2];\n"
       "    files = argv + 3;\n"
       "    if (argc - 3 != SONNX_DRV_N_INPUTS) {\n"
       "      fprintf(stderr, \"%s: %d input files given, the model takes %d\\n\", SONNX_DRV_MODEL, argc - 3,\n"
       "              SONNX_DRV_N_INPUTS);\n"
       "      sonnx_drv_usage(stderr, prog);\n"
       "      return 2;\n"
       "    }\n"
       "  } else if (argc == 3 && argv[1][0] != '-') {\n"
       "    in_dir = argv[1];\n"
       "    out_dir = argv[2];\n"
       "  } else if (argc == 4 && argv[1][0] != '-') {\n"
       "    in_dir = argv[2];\n"
       "    out_dir = argv[3];\n"
       "  } else {\n"
       "    sonnx_drv_usage(stderr, prog);\n"
       "    return 2;\n"
       "  }\n";
  if (weights_from_file) s += "  if (sonnx_drv_weights(prog, arena) != 0) return 1;\n";
  s += "  for (k = 0; k < SONNX_DRV_N_INPUTS; ++k)\n"
       "    if (sonnx_drv_read_input(k, &sonnx_drv_inputs[k], in_dir, files != NULL ? files[k] : NULL) != 0) return 1;\n"
       "  sonnx_drv_bind(&inputs, &outputs);\n"
       "  rc = " +
       P +
       "_run(&inputs, &outputs, arena);\n"
       "  if (rc != 0) {\n"
       "    fprintf(stderr, \"%s: " +
       c_comment(P) +
       "_run failed (returned %d)\\n\", SONNX_DRV_MODEL, rc);\n"
       "    return 1;\n"
       "  }\n"
       "  sonnx_drv_time(&inputs, &outputs, arena);\n"
       "  for (k = 0; k < SONNX_DRV_N_OUTPUTS; ++k)\n"
       "    if (sonnx_drv_write_output(k, &sonnx_drv_outputs[k], out_dir) != 0) return 1;\n"
       "  return 0;\n"
       "}\n";
  return s;
}

}  // namespace sonnx::emit

/*
 * Native speed-ups for the index's hot loop (optional: the pure-Python code in
 * hashing.py and formats.py is the definition and the fallback).
 *
 * canonical_json(value) -> bytes | None
 *     Exactly json.dumps(value, sort_keys=True, separators=(",", ":"),
 *     ensure_ascii=True).encode() for a value made only of exact JSON types
 *     (dict with str keys, list, tuple, str, int, float, bool, None); None for
 *     anything else (a subclass, a non-str key, nesting deeper than MAX_DEPTH,
 *     an int repr that raises), which the caller then encodes with json.dumps
 *     itself. Every piece is written as CPython's own json encoder writes it:
 *     repr for ints and floats, NaN/Infinity/-Infinity, and the escapes of
 *     encode_basestring_ascii (lowercase hex, surrogate pairs above U+FFFF).
 *     tests/test_speedups.py proves it byte-identical with hypothesis.
 *
 * has_terminal_controls(data) -> bool
 *     Does UTF-8 JSON text hold a character sanitize.json_text_safe would escape?
 *
 * record_values(data, key, stem, size, mtime_ns, hooks),
 * record_file_values(path, limit, hooks)
 *     The bytes lane: a record's summary values straight from its JSON bytes (a strict
 *     tokenizer, the envelope's canonical JSON written from the tokens), and the file
 *     read in front of it. tests/test_bytes_lane.py proves it equal to the orjson lane.
 *
 * object_outline(data), json_row(spec, values),
 * well_formed_values(raw, key, stem, size, mtime_ns, hooks),
 * event_facts(events, sanitize_line),
 * new_slotted(cls, members, values): see below.
 *
 * has_long_digit_run(data, run=19) -> bool
 *     Is there a run of at least `run` ASCII digits in data? (an integer orjson
 *     might read differently from Python's json).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#include <structmember.h> /* T_OBJECT_EX: how __slots__ members are stored */
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <unistd.h>
#include <stdint.h>
#include <sys/stat.h>

#define MAX_DEPTH 200

typedef struct {
    char *data;
    Py_ssize_t len;
    Py_ssize_t cap;
    char *stack; /* the caller's stack array data starts in: not freed, copied once outgrown */
} Buffer;

#define STACK_BYTES 8192
#define BUFFER_ON(array) {(array), 0, (Py_ssize_t)sizeof(array), (array)}

static int buf_reserve(Buffer *b, Py_ssize_t extra) {
    if (b->len + extra <= b->cap) return 0;
    Py_ssize_t cap = b->cap ? b->cap : 1024;
    while (cap < b->len + extra) cap *= 2;
    char *grown = b->data == b->stack ? PyMem_Malloc((size_t)cap)
                                      : PyMem_Realloc(b->data, (size_t)cap);
    if (grown == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (b->data == b->stack && b->len) memcpy(grown, b->data, (size_t)b->len);
    b->data = grown;
    b->cap = cap;
    return 0;
}

static void buf_release(Buffer *b) {
    if (b->data != b->stack) PyMem_Free(b->data);
}

static int buf_put(Buffer *b, const char *text, Py_ssize_t n) {
    if (buf_reserve(b, n) < 0) return -1;
    memcpy(b->data + b->len, text, (size_t)n);
    b->len += n;
    return 0;
}

static inline int buf_char(Buffer *b, char c) {
    if (b->len >= b->cap && buf_reserve(b, 1) < 0) return -1;
    b->data[b->len++] = c;
    return 0;
}

/* Result of encoding a value: written, not encodable here (caller falls back), or a
 * Python error (memory). */
enum { OK = 0, DECLINE = 1, FAIL = -1 };

static const char HEX[] = "0123456789abcdef";

static char *put_u_escape(char *out, Py_UCS4 c) {
    *out++ = '\\';
    *out++ = 'u';
    *out++ = HEX[(c >> 12) & 0xf];
    *out++ = HEX[(c >> 8) & 0xf];
    *out++ = HEX[(c >> 4) & 0xf];
    *out++ = HEX[c & 0xf];
    return out;
}

/* Does any of the 8 bytes in w need an escape in encode_basestring_ascii: below ' ',
 * above '~', '"' or '\\'? (The classic bit tricks: a byte's high bit marks a hit.) */
static inline uint64_t escapes_in(uint64_t w) {
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t below_space = (w - ones * 0x20) & ~w;
    uint64_t above_tilde = (w + ones) | w; /* w + 1 reaches 0x80 from 0x7f; high bytes stay */
    uint64_t quote = w ^ (ones * '"'), backslash = w ^ (ones * '\\');
    quote = (quote - ones) & ~quote;
    backslash = (backslash - ones) & ~backslash;
    return (below_space | above_tilde | quote | backslash) & highs;
}

/* One character that encode_basestring_ascii escapes, written at out. */
static inline char *escaped(char *out, Py_UCS4 c) {
    switch (c) {
    case '\\': *out++ = '\\'; *out++ = '\\'; break;
    case '"': *out++ = '\\'; *out++ = '"'; break;
    case '\b': *out++ = '\\'; *out++ = 'b'; break;
    case '\f': *out++ = '\\'; *out++ = 'f'; break;
    case '\n': *out++ = '\\'; *out++ = 'n'; break;
    case '\r': *out++ = '\\'; *out++ = 'r'; break;
    case '\t': *out++ = '\\'; *out++ = 't'; break;
    default:
        if (c >= 0x10000) {
            Py_UCS4 v = c - 0x10000;
            out = put_u_escape(out, 0xd800 | ((v >> 10) & 0x3ff));
            out = put_u_escape(out, 0xdc00 | (v & 0x3ff));
        } else {
            out = put_u_escape(out, c);
        }
    }
    return out;
}

static inline int plain_char(Py_UCS4 c) { return c >= ' ' && c <= '~' && c != '\\' && c != '"'; }

/* A 1-byte-kind string's characters, 8 at a time: a word with no escape is copied whole;
 * otherwise the bytes before its first escape are, then that one is escaped. (The lowest
 * marked byte is always a real one: the tricks' borrows and carries only run upwards.) */
static char *encode_bytes(char *out, const unsigned char *s, Py_ssize_t n) {
    Py_ssize_t i = 0;
#if PY_LITTLE_ENDIAN
    while (n - i >= 8) {
        uint64_t w, hits;
        memcpy(&w, s + i, 8);
        memcpy(out, &w, 8); /* the plain bytes, and maybe some that are rewritten next */
        if ((hits = escapes_in(w)) == 0) {
            out += 8;
            i += 8;
            continue;
        }
        int plain = __builtin_ctzll(hits) / 8;
        out = escaped(out + plain, s[i + plain]);
        i += plain + 1;
    }
#endif
    for (; i < n; i++) out = plain_char(s[i]) ? (*out = (char)s[i], out + 1) : escaped(out, s[i]);
    return out;
}

/* encode_basestring_ascii, as CPython's _json.c writes it. */
static int encode_string(Buffer *b, PyObject *text) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    /* Worst case 12 output bytes per character (a surrogate pair), plus the quotes; 8
     * more: a word is stored whole before its escapes are written over it. */
    if (n > (PY_SSIZE_T_MAX - 10) / 12) {
        PyErr_NoMemory();
        return FAIL;
    }
    if (buf_reserve(b, n * 12 + 10) < 0) return FAIL;
    char *out = b->data + b->len;
    *out++ = '"';
    if (kind == PyUnicode_1BYTE_KIND) {
        out = encode_bytes(out, data, n);
    } else {
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_UCS4 c = PyUnicode_READ(kind, data, i);
            out = plain_char(c) ? (*out = (char)c, out + 1) : escaped(out, c);
        }
    }
    *out++ = '"';
    b->len = out - b->data;
    return OK;
}

/* Decimal digits of an integer (what %lld / %llu write; snprintf costs more than the
 * whole rest of a small int's encoding). */
static int write_digits(char *out, unsigned long long magnitude, int negative) {
    char reversed[24];
    int count = 0, len = 0;
    do {
        reversed[count++] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude);
    if (negative) out[len++] = '-';
    while (count) out[len++] = reversed[--count];
    return len;
}

static int write_signed(char *out, long long value) {
    return value < 0 ? write_digits(out, 0ULL - (unsigned long long)value, 1)
                     : write_digits(out, (unsigned long long)value, 0);
}

static int encode_int(Buffer *b, PyObject *value) {
    int overflow = 0;
    long long small = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (small == -1 && PyErr_Occurred()) return FAIL;
    if (!overflow) {
        char digits[32];
        int n = write_signed(digits, small);
        return buf_put(b, digits, n) < 0 ? FAIL : OK;
    }
    /* Beyond 64 bits: int.__repr__, which json uses too (it may raise: then decline and
     * let json.dumps raise the same error). */
    PyObject *text = PyLong_Type.tp_repr(value);
    if (text == NULL) {
        PyErr_Clear();
        return DECLINE;
    }
    Py_ssize_t n;
    const char *utf8 = PyUnicode_AsUTF8AndSize(text, &n);
    int status = utf8 == NULL ? FAIL : (buf_put(b, utf8, n) < 0 ? FAIL : OK);
    Py_DECREF(text);
    return status;
}

static int encode_float(Buffer *b, PyObject *value) {
    double x = PyFloat_AS_DOUBLE(value);
    if (Py_IS_NAN(x)) return buf_put(b, "NaN", 3) < 0 ? FAIL : OK;
    if (Py_IS_INFINITY(x))
        return (x > 0 ? buf_put(b, "Infinity", 8) : buf_put(b, "-Infinity", 9)) < 0 ? FAIL : OK;
    /* float.__repr__ exactly (what json.dumps writes for a finite float). */
    char *text = PyOS_double_to_string(x, 'r', 0, Py_DTSF_ADD_DOT_0, NULL);
    if (text == NULL) return FAIL;
    int status = buf_put(b, text, (Py_ssize_t)strlen(text)) < 0 ? FAIL : OK;
    PyMem_Free(text);
    return status;
}

static int encode_value(Buffer *b, PyObject *value, int depth);

/* Code point order, as sorted() compares str keys in json.dumps. */
static int key_less(PyObject *a, PyObject *b) {
    if (PyUnicode_IS_ASCII(a) && PyUnicode_IS_ASCII(b)) {
        Py_ssize_t na = PyUnicode_GET_LENGTH(a), nb = PyUnicode_GET_LENGTH(b);
        int c = memcmp(PyUnicode_DATA(a), PyUnicode_DATA(b), (size_t)(na < nb ? na : nb));
        return c < 0 || (c == 0 && na < nb);
    }
    return PyUnicode_Compare(a, b) < 0; /* exact str: cannot fail */
}

typedef struct {
    PyObject *key; /* borrowed, like the value: nothing here runs Python code */
    PyObject *value;
} Pair;

static int pair_order(const void *a, const void *b) {
    PyObject *ka = ((const Pair *)a)->key, *kb = ((const Pair *)b)->key;
    return key_less(ka, kb) ? -1 : (key_less(kb, ka) ? 1 : 0);
}

#define SMALL_DICT 32

static int encode_dict(Buffer *b, PyObject *dict, int depth) {
    Py_ssize_t n = PyDict_GET_SIZE(dict);
    if (n == 0) return buf_put(b, "{}", 2) < 0 ? FAIL : OK;
    Pair small[SMALL_DICT];
    Pair *pairs = n <= SMALL_DICT ? small : PyMem_Malloc(sizeof(Pair) * (size_t)n);
    if (pairs == NULL) {
        PyErr_NoMemory();
        return FAIL;
    }
    Py_ssize_t pos = 0, count = 0;
    PyObject *key, *item;
    int status = OK;
    while (PyDict_Next(dict, &pos, &key, &item) && count < n) {
        if (!PyUnicode_CheckExact(key)) {
            status = DECLINE; /* json converts or refuses other keys: let it */
            goto done;
        }
        pairs[count].key = key;
        pairs[count].value = item;
        count++;
    }
    if (count <= SMALL_DICT) { /* insertion sort: record dicts are small */
        for (Py_ssize_t i = 1; i < count; i++) {
            Pair moving = pairs[i];
            Py_ssize_t at = i;
            while (at > 0 && key_less(moving.key, pairs[at - 1].key)) {
                pairs[at] = pairs[at - 1];
                at--;
            }
            pairs[at] = moving;
        }
    } else {
        qsort(pairs, (size_t)count, sizeof(Pair), pair_order);
    }
    if (buf_char(b, '{') < 0) {
        status = FAIL;
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        if ((i && buf_char(b, ',') < 0) || encode_string(b, pairs[i].key) != OK ||
            buf_char(b, ':') < 0) {
            status = FAIL;
            goto done;
        }
        status = encode_value(b, pairs[i].value, depth + 1);
        if (status != OK) goto done;
    }
    status = buf_char(b, '}') < 0 ? FAIL : OK;
done:
    if (pairs != small) PyMem_Free(pairs);
    return status;
}

static int encode_sequence(Buffer *b, PyObject *seq, int depth) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    if (buf_char(b, '[') < 0) return FAIL;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (i && buf_char(b, ',') < 0) return FAIL;
        int status = encode_value(b, items[i], depth + 1);
        if (status != OK) return status;
    }
    return buf_char(b, ']') < 0 ? FAIL : OK;
}

static int encode_value(Buffer *b, PyObject *value, int depth) {
    if (depth > MAX_DEPTH) return DECLINE; /* json.dumps decides: it may raise */
    PyTypeObject *type = Py_TYPE(value);
    if (type == &PyUnicode_Type) return encode_string(b, value);
    if (value == Py_None) return buf_put(b, "null", 4) < 0 ? FAIL : OK;
    if (value == Py_True) return buf_put(b, "true", 4) < 0 ? FAIL : OK;
    if (value == Py_False) return buf_put(b, "false", 5) < 0 ? FAIL : OK;
    if (type == &PyLong_Type) return encode_int(b, value);
    if (type == &PyFloat_Type) return encode_float(b, value);
    if (type == &PyDict_Type) return encode_dict(b, value, depth);
    if (type == &PyList_Type || type == &PyTuple_Type) return encode_sequence(b, value, depth);
    return DECLINE;
}

static PyObject *canonical_json(PyObject *module, PyObject *value) {
    char stack[STACK_BYTES];
    Buffer b = BUFFER_ON(stack);
    int status = encode_value(&b, value, 0);
    PyObject *result = NULL;
    if (status == OK) {
        result = PyBytes_FromStringAndSize(b.data, b.len);
    } else if (status == DECLINE) {
        result = Py_NewRef(Py_None);
    }
    buf_release(&b);
    return result;
}

static inline int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* Is there a run of at least `run` ASCII digits in data? */
static int digit_run(const unsigned char *data, Py_ssize_t n, Py_ssize_t run) {
    /* Look at the last byte of each window of `run` bytes: a non-digit there means no
     * run fits in that window, so skip it whole (most windows in record text). */
    Py_ssize_t start = 0;
    while (start + run <= n) {
        Py_ssize_t end = start + run - 1;
        if (!is_digit(data[end])) {
            start = end + 1;
            continue;
        }
        Py_ssize_t j = end;
        while (j > start && is_digit(data[j - 1])) j--;
        if (j == start) return 1;
        start = j; /* data[j-1] is not a digit: a run can only start at j */
    }
    return 0;
}

static PyObject *has_long_digit_run(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "has_long_digit_run(data, run=19)");
        return NULL;
    }
    Py_ssize_t run = 19;
    if (nargs == 2) {
        run = PyLong_AsSsize_t(args[1]);
        if (run == -1 && PyErr_Occurred()) return NULL;
        if (run < 1) {
            PyErr_SetString(PyExc_ValueError, "run must be at least 1");
            return NULL;
        }
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0) return NULL;
    int found = digit_run(view.buf, view.len, run);
    PyBuffer_Release(&view);
    return PyBool_FromLong(found);
}

/* Does UTF-8 JSON text hold a character sanitize.json_text_safe escapes: DEL, U+0080-U+009F,
 * U+061C, U+200B-U+200F, U+202A-U+202E, U+2060-U+2069, U+FEFF? (Matched on the encoded
 * bytes: a lead byte in valid UTF-8 never belongs to another character.) */
static PyObject *has_terminal_controls(PyObject *module, PyObject *arg) {
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return NULL;
    const unsigned char *d = view.buf;
    Py_ssize_t n = view.len;
    int found = 0;
    for (Py_ssize_t i = 0; i < n && !found; i++) {
        unsigned char c = d[i];
        if (c < 0x7f) continue;
        unsigned char c1 = i + 1 < n ? d[i + 1] : 0, c2 = i + 2 < n ? d[i + 2] : 0;
        found = c == 0x7f || (c == 0xc2 && c1 >= 0x80 && c1 <= 0x9f) ||
                (c == 0xd8 && c1 == 0x9c) ||
                (c == 0xe2 && c1 == 0x80 &&
                 ((c2 >= 0x8b && c2 <= 0x8f) || (c2 >= 0xaa && c2 <= 0xae))) ||
                (c == 0xe2 && c1 == 0x81 && c2 >= 0xa0 && c2 <= 0xa9) ||
                (c == 0xef && c1 == 0xbb && c2 == 0xbf);
    }
    PyBuffer_Release(&view);
    return PyBool_FromLong(found);
}

/* ------------------------------------------------------------------ object_outline */

static inline Py_ssize_t skip_ws(const unsigned char *d, Py_ssize_t n, Py_ssize_t i) {
    while (i < n) {
        unsigned char c = d[i];
        if (c == '\n' && n - i > 8) { /* an indented record's next line: spaces, 8 at a time */
            const uint64_t spaces = 0x2020202020202020ULL;
            uint64_t w;
            i++;
            while (n - i >= 8 && (memcpy(&w, d + i, 8), w == spaces)) i += 8;
        } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            i++;
        } else {
            break;
        }
    }
    return i;
}

/* The end (just past the closing quote) of the string opening at d[i], or -1. */
static Py_ssize_t string_end(const unsigned char *d, Py_ssize_t n, Py_ssize_t i) {
    for (i++; i < n; i++) {
        if (d[i] == '\\') {
            i++;
        } else if (d[i] == '"') {
            return i + 1;
        }
    }
    return -1;
}

/* The end of the object or array opening at d[i] (brackets counted outside strings, not
 * checked), or -1 when the data ends first or a run of 19 digits outside strings holds a
 * number orjson might read differently from Python's json. */
static Py_ssize_t container_end(const unsigned char *d, Py_ssize_t n, Py_ssize_t i) {
    Py_ssize_t depth = 0, digits = 0;
    for (; i < n; i++) {
        unsigned char c = d[i];
        if (c >= '0' && c <= '9') {
            if (++digits >= 19) return -1;
            continue;
        }
        digits = 0;
        if (c == '"') {
            if ((i = string_end(d, n, i)) < 0) return -1;
            i--;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            return i + 1;
        }
    }
    return -1;
}

/* object_outline(data) -> (members, elements)
 *
 * Where the complete sections of a JSON object cut short lie, for formats._Salvage to read
 * them with orjson instead of walking them: members, (key start, key end, value start,
 * value end) byte offsets of each top-level member, in order, up to the first whose value
 * is not a whole object or array; elements, the (start, end) of each whole object or
 * array at the start of that member's array value when its key is written "events" (else
 * an empty list). Spans are only candidates: the caller's parse decides whether each is
 * valid JSON. */
static PyObject *object_outline(PyObject *module, PyObject *arg) {
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return NULL;
    const unsigned char *d = view.buf;
    Py_ssize_t n = view.len;
    PyObject *members = PyList_New(0), *elements = PyList_New(0), *result = NULL;
    if (members == NULL || elements == NULL) goto done;
    Py_ssize_t i = skip_ws(d, n, 0);
    if (i >= n || d[i] != '{') goto finish;
    i++;
    for (int first = 1;; first = 0) {
        i = skip_ws(d, n, i);
        if (!first) {
            if (i >= n || d[i] != ',') break;
            i = skip_ws(d, n, i + 1);
        }
        if (i >= n || d[i] != '"') break;
        Py_ssize_t key_start = i, key_end = string_end(d, n, i);
        if (key_end < 0) break;
        i = skip_ws(d, n, key_end);
        if (i >= n || d[i] != ':') break;
        i = skip_ws(d, n, i + 1);
        if (i >= n || (d[i] != '{' && d[i] != '[')) break;
        Py_ssize_t value_end = container_end(d, n, i);
        if (value_end < 0) {
            int events = key_end - key_start == 8 && memcmp(d + key_start, "\"events\"", 8) == 0;
            if (!events || d[i] != '[') break;
            for (Py_ssize_t at = skip_ws(d, n, i + 1);;) {
                if (at >= n || (d[at] != '{' && d[at] != '[')) break;
                Py_ssize_t end = container_end(d, n, at);
                if (end < 0) break;
                PyObject *span = Py_BuildValue("(nn)", at, end);
                if (span == NULL || PyList_Append(elements, span) < 0) {
                    Py_XDECREF(span);
                    goto done;
                }
                Py_DECREF(span);
                at = skip_ws(d, n, end);
                if (at >= n || d[at] != ',') break;
                at = skip_ws(d, n, at + 1);
            }
            break;
        }
        PyObject *span = Py_BuildValue("(nnnn)", key_start, key_end, i, value_end);
        if (span == NULL || PyList_Append(members, span) < 0) {
            Py_XDECREF(span);
            goto done;
        }
        Py_DECREF(span);
        i = value_end;
    }
finish:
    result = PyTuple_Pack(2, members, elements);
done:
    Py_XDECREF(members);
    Py_XDECREF(elements);
    PyBuffer_Release(&view);
    return result;
}

/* ------------------------------------------------------------------ json_row */

/* Is c a character sanitize.json_text_safe writes as \uXXXX (a terminal acts on it)? */
static inline int terminal_control(Py_UCS4 c) {
    return (c >= 0x7f && c <= 0x9f) || c == 0x61c || (c >= 0x200b && c <= 0x200f) ||
           (c >= 0x202a && c <= 0x202e) || (c >= 0x2060 && c <= 0x2069) || c == 0xfeff;
}

/* A str as orjson.dumps writes it (UTF-8; \" \\ \b \t \n \f \r and \u00XX for other C0
 * controls) and then json_bytes_safe (terminal controls as \uXXXX). DECLINE for a lone
 * surrogate, which orjson refuses (the Python path replaces it). */
static int encode_row_string(Buffer *b, PyObject *text) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (n > (PY_SSIZE_T_MAX - 10) / 6) {
        PyErr_NoMemory();
        return FAIL;
    }
    /* \u0000 is the longest per character; 8 more: encode_bytes stores whole words. */
    if (buf_reserve(b, n * 6 + 10) < 0) return FAIL;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    char *out = b->data + b->len;
    *out++ = '"';
    if (PyUnicode_IS_ASCII(text)) {
        /* In ASCII, orjson's escapes plus \u007f are exactly json.dumps's (DEL included). */
        out = encode_bytes(out, data, n);
        n = 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c < 0x80) { /* ASCII: the same escapes as json.dumps (DEL as \u007f) */
            out = plain_char(c) ? (*out = (char)c, out + 1) : escaped(out, c);
        } else if (terminal_control(c)) {
            out = put_u_escape(out, c);
        } else if (c < 0x800) {
            *out++ = (char)(0xc0 | (c >> 6));
            *out++ = (char)(0x80 | (c & 0x3f));
        } else if (c < 0x10000) {
            if (c >= 0xd800 && c <= 0xdfff) return DECLINE;
            *out++ = (char)(0xe0 | (c >> 12));
            *out++ = (char)(0x80 | ((c >> 6) & 0x3f));
            *out++ = (char)(0x80 | (c & 0x3f));
        } else {
            *out++ = (char)(0xf0 | (c >> 18));
            *out++ = (char)(0x80 | ((c >> 12) & 0x3f));
            *out++ = (char)(0x80 | ((c >> 6) & 0x3f));
            *out++ = (char)(0x80 | (c & 0x3f));
        }
    }
    *out++ = '"';
    b->len = out - b->data;
    return OK;
}

/* An int as orjson writes it; DECLINE beyond 64 bits (orjson refuses those). */
static int encode_row_int(Buffer *b, PyObject *value) {
    char digits[32];
    int n;
    int overflow = 0;
    long long small = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (small == -1 && PyErr_Occurred()) return FAIL;
    if (!overflow) {
        n = write_signed(digits, small);
    } else if (overflow > 0) {
        unsigned long long big = PyLong_AsUnsignedLongLong(value);
        if (big == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            return DECLINE;
        }
        n = write_digits(digits, big, 0);
    } else {
        return DECLINE;
    }
    return buf_put(b, digits, n) < 0 ? FAIL : OK;
}

/* json_row(spec, values) -> bytes | None
 *     index.row_of_values in one call: for each (head, index, empty_is_null) of spec,
 *     head (the key, with what goes before it) and then values[index] as JSON, the
 *     object closed with "}". A str (or str subclass: the enum fields) is written as
 *     encode_row_string writes it, "" as null where empty_is_null; None, bool and int
 *     as orjson writes them. None for any other value, a lone surrogate or an int
 *     beyond 64 bits (the Python path handles those). */
static PyObject *json_row(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyTuple_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "json_row(spec: tuple, values: sequence)");
        return NULL;
    }
    PyObject *spec = args[0];
    PyObject *values = PySequence_Fast(args[1], "json_row: values must be a sequence");
    if (values == NULL) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(values);
    PyObject **items = PySequence_Fast_ITEMS(values);
    char stack[STACK_BYTES];
    Buffer b = BUFFER_ON(stack);
    int status = OK;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(spec) && status == OK; i++) {
        PyObject *entry = PyTuple_GET_ITEM(spec, i);
        if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 3 ||
            !PyBytes_Check(PyTuple_GET_ITEM(entry, 0))) {
            PyErr_SetString(PyExc_TypeError, "json_row: spec entries are (bytes, int, bool)");
            status = FAIL;
            break;
        }
        PyObject *head = PyTuple_GET_ITEM(entry, 0);
        Py_ssize_t at = PyLong_AsSsize_t(PyTuple_GET_ITEM(entry, 1));
        if (at == -1 && PyErr_Occurred()) {
            status = FAIL;
            break;
        }
        if (at < 0 || at >= count) {
            PyErr_SetString(PyExc_IndexError, "json_row: spec index out of range");
            status = FAIL;
            break;
        }
        int empty_is_null = PyTuple_GET_ITEM(entry, 2) == Py_True;
        PyObject *value = items[at];
        if (buf_put(&b, PyBytes_AS_STRING(head), PyBytes_GET_SIZE(head)) < 0) {
            status = FAIL;
        } else if (PyUnicode_Check(value)) {
            status = empty_is_null && PyUnicode_GET_LENGTH(value) == 0
                         ? (buf_put(&b, "null", 4) < 0 ? FAIL : OK)
                         : encode_row_string(&b, value);
        } else if (value == Py_None) {
            status = buf_put(&b, "null", 4) < 0 ? FAIL : OK;
        } else if (value == Py_True) {
            status = buf_put(&b, "true", 4) < 0 ? FAIL : OK;
        } else if (value == Py_False) {
            status = buf_put(&b, "false", 5) < 0 ? FAIL : OK;
        } else if (PyLong_CheckExact(value)) {
            status = encode_row_int(&b, value);
        } else {
            status = DECLINE;
        }
    }
    PyObject *result = NULL;
    if (status == OK && buf_char(&b, '}') == 0) {
        result = PyBytes_FromStringAndSize(b.data, b.len);
    } else if (status == DECLINE) {
        result = Py_NewRef(Py_None);
    }
    buf_release(&b);
    Py_DECREF(values);
    return result;
}

/* ------------------------------------------------------------------ event_facts */

/* The mark normalize_status(status) gives an attempt's end (index._MARKS: ok -> ✓,
 * error -> ✗, in_flight -> …, anything else -> ?). NULL on error. */
static const char *const OK_WORDS[] = {"ok", "success", "succeeded", "completed", "done", NULL};
static const char *const ERROR_WORDS[] = {"error", "failed", "failure", "exception", "timeout",
                                          NULL};

static int in_words(PyObject *text, const char *const *words) {
    for (; *words; words++)
        if (PyUnicode_CompareWithASCIIString(text, *words) == 0) return 1;
    return 0;
}

static PyObject *MARK_OK, *MARK_ERROR, *MARK_IN_FLIGHT, *MARK_OTHER, *MARK_NONE, *ARROW;
/* Interned keys: a lookup by C string would make (and hash) a new str every time. */
static PyObject *KEY_SEQ, *KEY_TYPE, *KEY_PAYLOAD, *KEY_AGENT, *KEY_STATUS;

/* dict[key] (borrowed) or NULL; never raises for exact str keys and exact dicts. */
static PyObject *item(PyObject *dict, PyObject *key) {
    PyObject *value = PyDict_GetItemWithError(dict, key);
    if (value == NULL) PyErr_Clear();
    return value;
}

static PyObject *end_mark(PyObject *status) {
    if (status == NULL || !PyUnicode_Check(status)) return MARK_OTHER; /* unknown | invalid */
    PyObject *lowered = PyObject_CallMethod(status, "lower", NULL); /* str.lower, Unicode rules */
    if (lowered == NULL) return NULL;
    PyObject *mark = in_words(lowered, OK_WORDS)      ? MARK_OK
                     : in_words(lowered, ERROR_WORDS) ? MARK_ERROR
                     /* sanitize_line leaves "in_flight" as it is, and makes nothing else it */
                     : PyUnicode_CompareWithASCIIString(lowered, "in_flight") == 0 ? MARK_IN_FLIGHT
                                                                                    : MARK_OTHER;
    Py_DECREF(lowered);
    return mark;
}

/* Printable ASCII is what sanitize_line leaves unchanged without looking. */
static int plain_ascii(PyObject *text) {
    if (!PyUnicode_IS_ASCII(text)) return 0;
    const unsigned char *d = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    for (Py_ssize_t i = 0; i < n; i++)
        if (d[i] < 0x20 || d[i] == 0x7f) return 0;
    return 1;
}

/* One attempt event in index._attempt_facts's pairing (per agent, latest start first):
 * a start opens a slot marked in flight; an end closes the agent's latest open slot (or
 * adds a slot of its own) with its status's mark. 0, or -1 on a Python error. */
static int pair_attempt(PyObject *open_by_agent, PyObject *agents, PyObject *marks,
                        PyObject *agent, int start, PyObject *status) {
    PyObject *stack = PyDict_GetItemWithError(open_by_agent, agent); /* borrowed */
    if (stack == NULL && PyErr_Occurred()) return -1;
    if (start) {
        if (stack == NULL) {
            stack = PyList_New(0);
            if (stack == NULL || PyDict_SetItem(open_by_agent, agent, stack) < 0) {
                Py_XDECREF(stack);
                return -1;
            }
            Py_DECREF(stack); /* the dict holds it */
        }
        PyObject *position = PyLong_FromSsize_t(PyList_GET_SIZE(agents));
        int failed = position == NULL || PyList_Append(stack, position) < 0 ||
                     PyList_Append(agents, agent) < 0 || PyList_Append(marks, MARK_IN_FLIGHT) < 0;
        Py_XDECREF(position);
        return failed ? -1 : 0;
    }
    Py_ssize_t position;
    if (stack != NULL && PyList_GET_SIZE(stack) > 0) {
        Py_ssize_t last = PyList_GET_SIZE(stack) - 1;
        position = PyLong_AsSsize_t(PyList_GET_ITEM(stack, last));
        if (PyList_SetSlice(stack, last, last + 1, NULL) < 0) return -1;
    } else {
        position = PyList_GET_SIZE(agents);
        if (PyList_Append(agents, agent) < 0 || PyList_Append(marks, MARK_NONE) < 0) return -1;
    }
    PyObject *mark = end_mark(status);
    if (mark == NULL) return -1;
    Py_INCREF(mark);
    PyList_SetItem(marks, position, mark); /* steals the reference */
    return 0;
}

/* The facts tuple from the paired attempts: (attempts, fallbacks, chain, last agent,
 * in-flight agent, final_payload), names made inert by sanitize_line. */
static PyObject *facts_of(PyObject *agents, PyObject *marks, Py_ssize_t fallbacks,
                          PyObject *final_payload, PyObject *sanitize) {
    Py_ssize_t count = PyList_GET_SIZE(agents);
    PyObject *names = PyList_New(count), *parts = PyList_New(count), *result = NULL;
    if (names == NULL || parts == NULL) goto done;
    PyObject *last_name = NULL, *in_flight = Py_None;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *agent = PyList_GET_ITEM(agents, i);
        PyObject *name = plain_ascii(agent) ? Py_NewRef(agent)
                                            : PyObject_CallOneArg(sanitize, agent);
        if (name == NULL) goto done;
        PyList_SET_ITEM(names, i, name);
        PyObject *mark = PyList_GET_ITEM(marks, i);
        PyObject *part = PyUnicode_FromFormat("%U %U", name, mark);
        if (part == NULL) goto done;
        PyList_SET_ITEM(parts, i, part);
        last_name = name;
        if (mark == MARK_IN_FLIGHT) in_flight = name;
    }
    PyObject *chain = PyUnicode_Join(ARROW, parts);
    if (chain == NULL) goto done;
    result = Py_BuildValue("(nnNOOO)", count, fallbacks, chain,
                           last_name ? last_name : MARK_NONE, in_flight, final_payload);
done:
    Py_XDECREF(names);
    Py_XDECREF(parts);
    return result;
}

/* event_facts(events, sanitize_line) -> (attempts, fallbacks, chain, last agent,
 * in-flight agent, last FINAL_RESPONSE payload or None) | None.
 *
 * index._well_formed_events and index._attempt_facts in one pass (they are the definition;
 * tests/test_speedups.py proves this equal): None unless every event is a dict with seq
 * 1..n (exact ints) in order, a str type and a dict payload, and every attempt's agent is
 * a str. */
static PyObject *event_facts(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "event_facts(events, sanitize_line)");
        return NULL;
    }
    PyObject *events = args[0], *sanitize = args[1];
    if (!PyList_CheckExact(events)) Py_RETURN_NONE;
    PyObject *agents = PyList_New(0), *marks = PyList_New(0), *open_by_agent = PyDict_New();
    PyObject *result = NULL, *final_payload = Py_None;
    Py_ssize_t fallbacks = 0;
    if (agents == NULL || marks == NULL || open_by_agent == NULL) goto done;
    Py_ssize_t n = PyList_GET_SIZE(events);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *event = PyList_GET_ITEM(events, i);
        if (!PyDict_CheckExact(event)) goto decline;
        PyObject *seq = item(event, KEY_SEQ);
        if (seq == NULL || !PyLong_CheckExact(seq)) goto decline;
        int overflow = 0;
        long long number = PyLong_AsLongLongAndOverflow(seq, &overflow);
        if (overflow || number != i + 1) goto decline;
        PyObject *kind = item(event, KEY_TYPE);
        PyObject *payload = item(event, KEY_PAYLOAD);
        if (kind == NULL || !PyUnicode_CheckExact(kind) || payload == NULL ||
            !PyDict_CheckExact(payload))
            goto decline;
        if (PyUnicode_CompareWithASCIIString(kind, "FINAL_RESPONSE") == 0) {
            final_payload = payload;
            continue;
        }
        if (PyUnicode_CompareWithASCIIString(kind, "FALLBACK_TRIGGERED") == 0) {
            fallbacks++;
            continue;
        }
        int start = PyUnicode_CompareWithASCIIString(kind, "AGENT_ATTEMPT_START") == 0;
        if (!start && PyUnicode_CompareWithASCIIString(kind, "AGENT_ATTEMPT_END") != 0) continue;
        PyObject *agent = item(payload, KEY_AGENT);
        if (agent == NULL || !PyUnicode_CheckExact(agent)) goto decline;
        if (pair_attempt(open_by_agent, agents, marks, agent, start,
                         start ? NULL : item(payload, KEY_STATUS)) < 0)
            goto done;
    }
    result = facts_of(agents, marks, fallbacks, final_payload, sanitize);
    goto done;
decline:
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(agents);
    Py_XDECREF(marks);
    Py_XDECREF(open_by_agent);
    return result;
}

/* ------------------------------------------------------------------ well_formed_values */

/* Record keys, interned once (see KEY_SEQ). */
enum {
    K_HEADER, K_ENVELOPE, K_EVENTS, K_EXECUTION_ID, K_CREATED, K_REPLAYABLE, K_REASON,
    K_HASH, K_INTENT, K_DECISION, K_FINAL, K_NAME, K_ROUTING, K_STRATEGY, K_HAS_ERROR,
    K_COUNT
};
static const char *const KEY_NAMES[K_COUNT] = {
    "header", "envelope", "events", "executionId", "createdUtcIso", "replayable",
    "replayableReason", "envelopeHash", "intent", "routerDecision", "finalResponse", "name",
    "routing", "strategy", "has_error",
};
static PyObject *KEYS[K_COUNT];
static PyObject *WORD_OK, *WORD_ERROR, *WORD_UNKNOWN, *WORD_INVALID, *WHY_INCOMPLETE,
    *WHY_RECORDING, *WHY_UNMARKED, *SOURCE_RECORD, *SUFFIX_JSON;

/* The hooks tuple: Python functions for what is rare, and the enum members to write. */
enum {
    H_HASH_FIELDS, H_SANITIZE_LINE, H_DISPLAY_TEXT, H_FINAL_PROBLEMS, H_INCOMPLETE,
    H_COMPLETED, H_LOAD_OK, H_PARSED_MESSAGE, H_COUNT
};

static PyObject *key_of(PyObject *dict, int key) { return item(dict, KEYS[key]); }

/* index._clean: "" for nothing, printable ASCII as it is, else sanitize_line(text). */
static PyObject *clean(PyObject *text, PyObject *sanitize) {
    if (text == NULL || text == Py_None || PyUnicode_GET_LENGTH(text) == 0)
        return PyUnicode_New(0, 0);
    return plain_ascii(text) ? Py_NewRef(text) : PyObject_CallOneArg(sanitize, text);
}

/* timeline.normalize_status (the same word lists as end_mark). */
static PyObject *normalized_status(PyObject *status, PyObject *sanitize) {
    if (status == NULL || status == Py_None) return Py_NewRef(WORD_UNKNOWN);
    if (!PyUnicode_Check(status)) return Py_NewRef(WORD_INVALID);
    PyObject *lowered = PyObject_CallMethod(status, "lower", NULL);
    if (lowered == NULL) return NULL;
    PyObject *result = in_words(lowered, OK_WORDS)      ? Py_NewRef(WORD_OK)
                       : in_words(lowered, ERROR_WORDS) ? Py_NewRef(WORD_ERROR)
                                                        : PyObject_CallOneArg(sanitize, lowered);
    Py_DECREF(lowered);
    return result;
}

/* The decided agent from the decision's agent value (NULL: no such key):
 * (display_text(agent) or None), printable ASCII without the call. */
static PyObject *decided_agent(PyObject *agent, PyObject *display_text) {
    PyObject *text;
    if (agent == NULL || agent == Py_None) return Py_NewRef(Py_None);
    if (PyUnicode_CheckExact(agent) && plain_ascii(agent)) {
        text = Py_NewRef(agent);
    } else {
        text = PyObject_CallOneArg(display_text, agent);
        if (text == NULL) return NULL;
    }
    if (PyUnicode_Check(text) && PyUnicode_GET_LENGTH(text) == 0) {
        Py_DECREF(text);
        return Py_NewRef(Py_None);
    }
    return text;
}

/* len(final_response_problems(final, recorded)), without the call when they are equal
 * and recorded is not the documented summary form (has_error without payload). */
static Py_ssize_t problem_count(PyObject *final, PyObject *recorded, PyObject *problems) {
    int summary_form = PyDict_Contains(recorded, KEYS[K_HAS_ERROR]) == 1 &&
                       PyDict_Contains(recorded, KEY_PAYLOAD) != 1;
    if (!summary_form) {
        int equal = PyObject_RichCompareBool(recorded, final, Py_EQ);
        if (equal < 0) return -1;
        if (equal) return 0;
    }
    PyObject *found = PyObject_CallFunctionObjArgs(problems, final, recorded, NULL);
    if (found == NULL) return -1;
    Py_ssize_t count = PyObject_Length(found);
    Py_DECREF(found);
    return count;
}

/* What a record's summary values are made of, found in a dict (well_formed_values) or in
 * the bytes (record_values). Borrowed references; NULL where the record has no such key. */
typedef struct {
    PyObject *execution_id, *created, *flag, *reason, *name, *strategy;
    PyObject *decided;      /* the routerDecision's agent; NULL: none, or no such key */
    PyObject *final_status; /* the finalResponse's status */
    int has_final, final_empty;
    Py_ssize_t problems, event_count;
    PyObject *facts;  /* event facts: (attempts, fallbacks, chain, last agent, in flight, _) */
    PyObject *hashed; /* (status, detected form, matched form) */
} Parts;

/* The summary's values from the parts, as well_formed_values_python writes them. */
static PyObject *values_of(const Parts *p, PyObject *const *args, PyObject *hooks) {
    PyObject *sanitize = PyTuple_GET_ITEM(hooks, H_SANITIZE_LINE);
    PyObject *result = NULL, *agent = NULL, *why_clean = NULL, *status = NULL;
    PyObject *fields[4] = {NULL};
    PyObject *why = Py_None;
    int replayable = 0;
    if (!p->has_final) {
        why = WHY_INCOMPLETE;
    } else if (p->final_empty) {
        why = WHY_RECORDING;
    } else if (p->flag == Py_False) {
        why = p->reason != NULL && p->reason != Py_None && PyUnicode_GET_LENGTH(p->reason)
                  ? p->reason
                  : WHY_UNMARKED;
    } else {
        replayable = 1;
    }
    if (p->decided != NULL) {
        agent = decided_agent(p->decided, PyTuple_GET_ITEM(hooks, H_DISPLAY_TEXT));
        if (agent == NULL) goto done;
    }
    if (agent == NULL || agent == Py_None) {
        Py_XDECREF(agent);
        agent = Py_NewRef(PyTuple_GET_ITEM(p->facts, 3)); /* the last agent */
    }
    fields[0] = clean(p->execution_id, sanitize);
    fields[1] = clean(p->created, sanitize);
    fields[2] = clean(p->name != NULL && PyUnicode_CheckExact(p->name) ? p->name : NULL, sanitize);
    fields[3] = clean(p->strategy != NULL && PyUnicode_CheckExact(p->strategy) ? p->strategy : NULL,
                      sanitize);
    for (int i = 0; i < 4; i++)
        if (fields[i] == NULL) goto done;
    why_clean = why == Py_None ? Py_NewRef(Py_None) : clean(why, sanitize);
    if (why_clean == NULL) goto done;
    if (why_clean != Py_None && PyUnicode_GET_LENGTH(why_clean) == 0) {
        Py_DECREF(why_clean);
        why_clean = Py_NewRef(Py_None);
    }
    status = p->has_final ? normalized_status(p->final_status, sanitize) : Py_NewRef(Py_None);
    if (status == NULL) goto done;
    PyObject *facts = p->facts, *hashed = p->hashed;
    result = Py_BuildValue(
        "(OOOOOOOOOOOOOOnOOOOOnOOOOO)", args[1], fields[0], fields[1], fields[2], agent,
        fields[3], PyTuple_GET_ITEM(hooks, p->has_final ? H_COMPLETED : H_INCOMPLETE),
        PyTuple_GET_ITEM(hooks, H_LOAD_OK), PyTuple_GET_ITEM(hooks, H_PARSED_MESSAGE),
        replayable ? Py_True : Py_False, why_clean, PyTuple_GET_ITEM(hashed, 0),
        PyTuple_GET_ITEM(hashed, 1), PyTuple_GET_ITEM(hashed, 2), p->event_count,
        PyTuple_GET_ITEM(facts, 0), PyTuple_GET_ITEM(facts, 1), PyTuple_GET_ITEM(facts, 2),
        PyTuple_GET_ITEM(facts, 4), status, p->problems, args[3], args[4], SOURCE_RECORD, Py_None,
        Py_None);
done:
    Py_XDECREF(agent);
    Py_XDECREF(why_clean);
    Py_XDECREF(status);
    for (int i = 0; i < 4; i++) Py_XDECREF(fields[i]);
    return result;
}

/* A hash_fields hook's answer checked: a 3-tuple (new reference), None, or NULL. */
static PyObject *checked_hash_fields(PyObject *hashed) {
    if (hashed != NULL && hashed != Py_None &&
        (!PyTuple_CheckExact(hashed) || PyTuple_GET_SIZE(hashed) != 3)) {
        Py_DECREF(hashed);
        PyErr_SetString(PyExc_TypeError, "hash_fields must return a 3-tuple or None");
        return NULL;
    }
    return hashed;
}

static int check_hooks(PyObject *hooks, Py_ssize_t count) {
    return PyTuple_CheckExact(hooks) && PyTuple_GET_SIZE(hooks) == count;
}

/* well_formed_values(raw, key, stem, size, mtime_ns, hooks) -> tuple | None
 *
 * index.well_formed_values_python (the definition; tests/test_speedups.py proves them
 * equal) for a record that is an exact dict: the summary's field values, or None as soon
 * as anything is unusual. hooks: (hash_fields(envelope, stored), sanitize_line,
 * display_text, final_response_problems, ExecutionState.INCOMPLETE,
 * ExecutionState.COMPLETED, LoadStatus.OK, the parsed message). */
static PyObject *well_formed_values(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6 || !PyDict_CheckExact(args[0]) || !check_hooks(args[5], H_COUNT)) {
        PyErr_SetString(PyExc_TypeError,
                        "well_formed_values(raw: dict, key, stem, size, mtime_ns, hooks)");
        return NULL;
    }
    PyObject *raw = args[0], *stem = args[2], *hooks = args[5];
    PyObject *sanitize = PyTuple_GET_ITEM(hooks, H_SANITIZE_LINE);
    Parts p = {0};
    PyObject *header = key_of(raw, K_HEADER), *envelope = key_of(raw, K_ENVELOPE);
    if (header == NULL || !PyDict_CheckExact(header) || envelope == NULL ||
        !PyDict_CheckExact(envelope))
        Py_RETURN_NONE;
    p.execution_id = key_of(header, K_EXECUTION_ID);
    p.created = key_of(header, K_CREATED);
    p.flag = key_of(header, K_REPLAYABLE);
    p.reason = key_of(header, K_REASON);
    PyObject *stored = key_of(header, K_HASH);
    if (p.execution_id == NULL || !PyUnicode_CheckExact(p.execution_id) || p.created == NULL ||
        !PyUnicode_CheckExact(p.created) || p.flag == NULL || !PyBool_Check(p.flag) ||
        stored == NULL || !PyUnicode_CheckExact(stored))
        Py_RETURN_NONE;
    int same = PyUnicode_Check(stem) ? PyUnicode_Compare(p.execution_id, stem) == 0 : 0;
    if (PyErr_Occurred()) return NULL;
    if (!same) Py_RETURN_NONE;
    if (p.reason != NULL && p.reason != Py_None && !PyUnicode_CheckExact(p.reason))
        Py_RETURN_NONE;
    PyObject *intent = key_of(envelope, K_INTENT);
    if (intent == NULL || !PyDict_CheckExact(intent)) Py_RETURN_NONE;
    PyObject *decision = key_of(raw, K_DECISION), *final = key_of(raw, K_FINAL);
    if (decision == Py_None) decision = NULL;
    if (final == Py_None) final = NULL;
    if ((decision != NULL && !PyDict_CheckExact(decision)) ||
        (final != NULL && !PyDict_CheckExact(final)))
        Py_RETURN_NONE;
    PyObject *events = key_of(raw, K_EVENTS);
    PyObject *facts_args[2] = {events ? events : Py_None, sanitize};
    p.facts = event_facts(module, facts_args, 2);
    if (p.facts == NULL || p.facts == Py_None) return p.facts;
    PyObject *result = NULL;
    p.hashed = checked_hash_fields(PyObject_CallFunctionObjArgs(
        PyTuple_GET_ITEM(hooks, H_HASH_FIELDS), envelope, stored, NULL));
    if (p.hashed == NULL || p.hashed == Py_None) {
        result = p.hashed;
        p.hashed = NULL;
        goto done;
    }
    p.name = key_of(intent, K_NAME);
    PyObject *routing = key_of(envelope, K_ROUTING);
    p.strategy = routing != NULL && PyDict_CheckExact(routing) ? key_of(routing, K_STRATEGY)
                                                               : NULL;
    p.decided = decision != NULL ? item(decision, KEY_AGENT) : NULL;
    p.has_final = final != NULL;
    p.final_empty = final != NULL && PyDict_GET_SIZE(final) == 0;
    p.final_status = final != NULL ? item(final, KEY_STATUS) : NULL;
    PyObject *final_event = PyTuple_GET_ITEM(p.facts, 5);
    if (final != NULL && final_event != Py_None) {
        p.problems =
            problem_count(final, final_event, PyTuple_GET_ITEM(hooks, H_FINAL_PROBLEMS));
        if (p.problems < 0) goto done;
    }
    p.event_count = events ? PyList_GET_SIZE(events) : 0;
    result = values_of(&p, args, hooks);
done:
    Py_DECREF(p.facts);
    Py_XDECREF(p.hashed);
    return result;
}

/* ------------------------------------------------------------------ record_values */

/* The bytes lane: a record's summary values read straight from its JSON bytes, with no
 * Python object for the whole document. A strict tokenizer checks the text (anything it
 * is not sure orjson reads the same way is declined), the envelope's canonical JSON is
 * written from the tokens, and only the few values a summary holds become Python
 * objects. Rare cases (a hash that does not match, a final response unlike its event, a
 * string with escapes) hand the sub-value, read by orjson, to the Python hooks. */

enum { J_OBJECT, J_ARRAY, J_STRING, J_INT, J_FLOAT, J_TRUE, J_FALSE, J_NULL };
#define S_ESCAPED 1 /* a string with a backslash escape */
#define LANE_DEPTH 64
#define LANE_SMALL 1024

typedef struct {
    uint8_t kind, flags;
    int32_t start, end; /* bytes [start, end); a string's include its quotes */
    int32_t next;       /* the token after this value and everything inside it */
    int32_t count;      /* an object's members (key and value tokens each), an array's elements */
} Token;

typedef struct {
    Token *at;
    int32_t len, cap;
    Token small[LANE_SMALL];
} Tokens;

static Token *new_token(Tokens *t, int kind, Py_ssize_t start) {
    if (t->len == t->cap) {
        if (t->cap > INT32_MAX / 2) return NULL;
        int32_t cap = t->cap * 2;
        Token *grown = t->at == t->small ? PyMem_Malloc(sizeof(Token) * (size_t)cap)
                                         : PyMem_Realloc(t->at, sizeof(Token) * (size_t)cap);
        if (grown == NULL) return NULL;
        if (t->at == t->small) memcpy(grown, t->small, sizeof t->small);
        t->at = grown;
        t->cap = cap;
    }
    Token *token = &t->at[t->len];
    token->kind = (uint8_t)kind;
    token->flags = 0;
    token->start = (int32_t)start;
    token->end = (int32_t)start;
    token->count = 0;
    token->next = ++t->len;
    return token;
}

static inline int hex_value(unsigned char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int32_t hex4(const unsigned char *s) {
    int32_t v = 0;
    for (int k = 0; k < 4; k++) {
        int h = hex_value(s[k]);
        if (h < 0) return -1;
        v = v * 16 + h;
    }
    return v;
}

/* The length of the well-formed UTF-8 sequence at s (at most n bytes), or 0. */
static int utf8_length(const unsigned char *s, Py_ssize_t n) {
    unsigned char c = s[0];
    if (c >= 0xc2 && c <= 0xdf) return n >= 2 && (s[1] & 0xc0) == 0x80 ? 2 : 0;
    if (c >= 0xe0 && c <= 0xef) {
        if (n < 3 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80) return 0;
        if (c == 0xe0 && s[1] < 0xa0) return 0; /* overlong */
        if (c == 0xed && s[1] > 0x9f) return 0; /* a surrogate */
        return 3;
    }
    if (c >= 0xf0 && c <= 0xf4) {
        if (n < 4 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80)
            return 0;
        if (c == 0xf0 && s[1] < 0x90) return 0; /* overlong */
        if (c == 0xf4 && s[1] > 0x8f) return 0; /* beyond U+10FFFF */
        return 4;
    }
    return 0;
}

static Py_UCS4 utf8_char(const unsigned char *s, int length) {
    if (length == 2) return ((Py_UCS4)(s[0] & 0x1f) << 6) | (s[1] & 0x3f);
    if (length == 3)
        return ((Py_UCS4)(s[0] & 0x0f) << 12) | ((Py_UCS4)(s[1] & 0x3f) << 6) | (s[2] & 0x3f);
    return ((Py_UCS4)(s[0] & 0x07) << 18) | ((Py_UCS4)(s[1] & 0x3f) << 12) |
           ((Py_UCS4)(s[2] & 0x3f) << 6) | (s[3] & 0x3f);
}

/* The end of the JSON string opening at d[i] (past its quote); -1 when it is not valid
 * JSON, -2 for what is declined (a \u escape of a surrogate: orjson's reading of those is
 * left to it). Sets S_ESCAPED in *flags when it holds an escape. */
static Py_ssize_t scan_string(const unsigned char *d, Py_ssize_t n, Py_ssize_t i, uint8_t *flags) {
    Py_ssize_t j = i + 1;
    for (;;) {
#if PY_LITTLE_ENDIAN
        while (n - j >= 8) { /* plain printable ASCII, 8 bytes at a time */
            uint64_t w, hits;
            memcpy(&w, d + j, 8);
            if ((hits = escapes_in(w)) != 0) {
                j += __builtin_ctzll(hits) / 8; /* to the first byte to look at */
                break;
            }
            j += 8;
        }
#endif
        if (j >= n) return -1;
        unsigned char c = d[j];
        if (c == '"') return j + 1;
        if (c == '\\') {
            *flags |= S_ESCAPED;
            if (j + 1 >= n) return -1;
            switch (d[j + 1]) {
            case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
                j += 2;
                continue;
            case 'u': {
                if (n - j < 6) return -1;
                int32_t v = hex4(d + j + 2);
                if (v < 0) return -1;
                if (v >= 0xd800 && v <= 0xdfff) return -2;
                j += 6;
                continue;
            }
            default:
                return -1;
            }
        }
        if (c < 0x20) return -1;
        if (c < 0x80) {
            j++;
            continue;
        }
        int length = utf8_length(d + j, n - j);
        if (!length) return -1;
        j += length;
    }
}

/* The end of the JSON number at d[i]; -1 when it is not valid JSON, -2 when declined (an
 * exponent; more significant digits than a 64-bit int holds, or than 17 for a float: every
 * correctly rounding reader then gets the same double). */
static Py_ssize_t scan_number(const unsigned char *d, Py_ssize_t n, Py_ssize_t i, int *kind) {
    Py_ssize_t j = i, significant = 0;
    if (d[j] == '-') j++;
    if (j >= n || !is_digit(d[j])) return -1;
    if (d[j] == '0') {
        j++;
    } else {
        while (j < n && is_digit(d[j])) j++, significant++;
    }
    *kind = J_INT;
    if (j < n && d[j] == '.') {
        j++;
        if (j >= n || !is_digit(d[j])) return -1;
        for (; j < n && is_digit(d[j]); j++)
            if (significant || d[j] != '0') significant++;
        *kind = J_FLOAT;
    }
    if (j < n && (d[j] == 'e' || d[j] == 'E')) return -2;
    if (significant > (*kind == J_INT ? 18 : 17)) return -2;
    return j;
}

static Py_ssize_t scan_literal(const unsigned char *d, Py_ssize_t n, Py_ssize_t i, int *kind) {
    if (n - i >= 4 && memcmp(d + i, "true", 4) == 0) return *kind = J_TRUE, i + 4;
    if (n - i >= 5 && memcmp(d + i, "false", 5) == 0) return *kind = J_FALSE, i + 5;
    if (n - i >= 4 && memcmp(d + i, "null", 4) == 0) return *kind = J_NULL, i + 4;
    return -1;
}

/* Tokenize d, a JSON object: OK, DECLINE (not valid JSON, not an object, or anything
 * declined: nesting deeper than LANE_DEPTH, a key with an escape, ...), FAIL (memory). */
static int tokenize(const unsigned char *d, Py_ssize_t n, Tokens *t) {
    int32_t open[LANE_DEPTH];
    int depth = 0;
    Py_ssize_t i = skip_ws(d, n, 0);
    if (n > INT32_MAX || i >= n || d[i] != '{') return DECLINE;
    for (;;) {
        /* a value starts at d[i] (whitespace skipped) */
        if (i >= n) return DECLINE;
        unsigned char c = d[i];
        Token *token;
        Py_ssize_t end;
        if (c == '{' || c == '[') {
            if (depth == LANE_DEPTH) return DECLINE;
            if ((token = new_token(t, c == '{' ? J_OBJECT : J_ARRAY, i)) == NULL) goto memory;
            open[depth++] = t->len - 1;
            i = skip_ws(d, n, i + 1);
            if (i < n && d[i] == (c == '{' ? '}' : ']')) {
                token->end = (int32_t)++i;
                depth--;
                goto after_value;
            }
            if (c == '[') continue;
            goto key;
        }
        if (c == '"') {
            if ((token = new_token(t, J_STRING, i)) == NULL) goto memory;
            end = scan_string(d, n, i, &token->flags);
            if (end < 0) return DECLINE;
            token->end = (int32_t)(i = end);
        } else if (c == '-' || is_digit(c)) {
            int kind;
            end = scan_number(d, n, i, &kind);
            if (end < 0) return DECLINE;
            if ((token = new_token(t, kind, i)) == NULL) goto memory;
            token->end = (int32_t)(i = end);
        } else {
            int kind;
            end = scan_literal(d, n, i, &kind);
            if (end < 0) return DECLINE;
            if ((token = new_token(t, kind, i)) == NULL) goto memory;
            token->end = (int32_t)(i = end);
        }
    after_value:
        if (depth == 0) return skip_ws(d, n, i) == n ? OK : DECLINE;
        {
            Token *container = &t->at[open[depth - 1]];
            int object = container->kind == J_OBJECT;
            container->count++;
            i = skip_ws(d, n, i);
            if (i < n && d[i] == ',') {
                i = skip_ws(d, n, i + 1);
                if (object) goto key;
                continue;
            }
            if (i < n && d[i] == (object ? '}' : ']')) {
                container->end = (int32_t)++i;
                container->next = t->len;
                depth--;
                goto after_value;
            }
            return DECLINE;
        }
    key:
        if (i >= n || d[i] != '"') return DECLINE;
        if ((token = new_token(t, J_STRING, i)) == NULL) goto memory;
        end = scan_string(d, n, i, &token->flags);
        if (end < 0 || token->flags & S_ESCAPED) return DECLINE; /* keys are matched as bytes */
        token->end = (int32_t)end;
        i = skip_ws(d, n, end);
        if (i >= n || d[i] != ':') return DECLINE;
        i = skip_ws(d, n, i + 1);
    }
memory:
    PyErr_NoMemory();
    return FAIL;
}

typedef struct {
    const unsigned char *d;
    const Token *t;
    PyObject *loads;
} Doc;

/* Are the n bytes at s exactly the ASCII text `text`? */
static int same_text(const unsigned char *s, Py_ssize_t n, const char *text) {
    size_t length = strlen(text);
    return (size_t)n == length && memcmp(s, text, length) == 0;
}

/* Does string token `at` hold exactly `text`? (Compared as written: keys with escapes are
 * declined, and so are escaped strings where this is used.) */
static int string_is(const Doc *doc, int32_t at, const char *text) {
    const Token *s = &doc->t[at];
    return same_text(doc->d + s->start + 1, s->end - s->start - 2, text);
}

/* The value token of the last member of object `object` keyed `name` (as orjson keeps the
 * last of duplicate keys), or -1. */
static int32_t member(const Doc *doc, int32_t object, const char *name) {
    if (object < 0 || doc->t[object].kind != J_OBJECT) return -1;
    int32_t found = -1, at = object + 1;
    for (int32_t m = 0; m < doc->t[object].count; m++) {
        if (string_is(doc, at, name)) found = at + 1;
        at = doc->t[at + 1].next;
    }
    return found;
}

static int kind_of(const Doc *doc, int32_t at) { return at < 0 ? -1 : doc->t[at].kind; }

/* The value at token `at`, as orjson reads it (a new reference). */
static PyObject *materialize(const Doc *doc, int32_t at) {
    const Token *token = &doc->t[at];
    PyObject *view = PyMemoryView_FromMemory((char *)doc->d + token->start,
                                             token->end - token->start, PyBUF_READ);
    if (view == NULL) return NULL;
    PyObject *value = PyObject_CallOneArg(doc->loads, view);
    Py_DECREF(view);
    return value;
}

/* A string token's str (a new reference); its UTF-8 was checked by the tokenizer. */
static PyObject *string_value(const Doc *doc, int32_t at) {
    const Token *s = &doc->t[at];
    if (s->flags & S_ESCAPED) return materialize(doc, at);
    return PyUnicode_DecodeUTF8((const char *)doc->d + s->start + 1, s->end - s->start - 2, NULL);
}

/* Any token's value: a str without orjson for strings, Py_None for null (new references). */
static PyObject *value_at(const Doc *doc, int32_t at) {
    if (doc->t[at].kind == J_STRING) return string_value(doc, at);
    if (doc->t[at].kind == J_NULL) return Py_NewRef(Py_None);
    return materialize(doc, at);
}

/* Do tokens a and b hold the same JSON text, token for token? (Then they are equal
 * values; the converse need not hold, and the caller then compares the values.) */
static int same_tokens(const Doc *doc, int32_t a, int32_t b) {
    const Token *t = doc->t;
    int32_t length = t[a].next - a;
    if (t[b].next - b != length) return 0;
    for (int32_t k = 0; k < length; k++) {
        const Token *x = &t[a + k], *y = &t[b + k];
        if (x->kind != y->kind || x->count != y->count) return 0;
        if (x->kind != J_OBJECT && x->kind != J_ARRAY &&
            (x->end - x->start != y->end - y->start ||
             memcmp(doc->d + x->start, doc->d + y->start, (size_t)(x->end - x->start)) != 0))
            return 0;
    }
    return 1;
}

/* ---- the envelope's canonical JSON, from its tokens */

/* A string token's inner text, escaped as encode_basestring_ascii escapes its value. */
static int canonical_string(Buffer *b, const unsigned char *s, Py_ssize_t n) {
    if (n > (PY_SSIZE_T_MAX - 20) / 6) {
        PyErr_NoMemory();
        return FAIL;
    }
    /* 6 bytes out per byte in at most (DEL as \u007f); 8 more: whole words are stored. */
    if (buf_reserve(b, n * 6 + 20) < 0) return FAIL;
    char *out = b->data + b->len;
    *out++ = '"';
    Py_ssize_t i = 0;
    while (i < n) {
#if PY_LITTLE_ENDIAN
        if (n - i >= 8) { /* plain printable ASCII is copied a word at a time */
            uint64_t w, hits;
            memcpy(&w, s + i, 8);
            memcpy(out, &w, 8);
            if ((hits = escapes_in(w)) == 0) {
                out += 8;
                i += 8;
                continue;
            }
            int plain = __builtin_ctzll(hits) / 8;
            out += plain;
            i += plain;
        }
#endif
        if (s[i] < 0x80 && s[i] != '\\') { /* DEL, or a plain byte of a short tail */
            out = plain_char(s[i]) ? (*out = (char)s[i], out + 1) : escaped(out, s[i]);
            i++;
            continue;
        }
        if (s[i] == '\\') {
            unsigned char e = s[i + 1];
            i += 2;
            switch (e) {
            case '"': out = escaped(out, '"'); break;
            case '\\': out = escaped(out, '\\'); break;
            case '/': *out++ = '/'; break;
            case 'b': out = escaped(out, '\b'); break;
            case 'f': out = escaped(out, '\f'); break;
            case 'n': out = escaped(out, '\n'); break;
            case 'r': out = escaped(out, '\r'); break;
            case 't': out = escaped(out, '\t'); break;
            default: { /* 'u': checked by the tokenizer, never a surrogate */
                Py_UCS4 c = (Py_UCS4)hex4(s + i);
                i += 4;
                out = plain_char(c) ? (*out = (char)c, out + 1) : escaped(out, c);
            }
            }
            continue;
        }
        int length = utf8_length(s + i, n - i);
        out = escaped(out, utf8_char(s + i, length));
        i += length;
    }
    *out++ = '"';
    b->len = out - b->data;
    return OK;
}

/* A float token as float.__repr__ writes the double orjson reads from it (at most 17
 * digits, no exponent: any correctly rounding reader gets the same double). */
static int canonical_float(Buffer *b, const unsigned char *s, Py_ssize_t n) {
    char text[48];
    if (n >= (Py_ssize_t)sizeof text) return DECLINE;
    memcpy(text, s, (size_t)n);
    text[n] = '\0';
    char *end;
    double x = PyOS_string_to_double(text, &end, NULL);
    if (x == -1.0 && PyErr_Occurred()) return FAIL;
    if (end != text + n || !isfinite(x)) return DECLINE;
    char *repr = PyOS_double_to_string(x, 'r', 0, Py_DTSF_ADD_DOT_0, NULL);
    if (repr == NULL) return FAIL;
    int status = buf_put(b, repr, (Py_ssize_t)strlen(repr)) < 0 ? FAIL : OK;
    PyMem_Free(repr);
    return status;
}

typedef struct {
    const unsigned char *key;
    int32_t length, value, order;
} Member;

static int member_order(const void *a, const void *b) {
    const Member *x = a, *y = b;
    int c = memcmp(x->key, y->key, (size_t)(x->length < y->length ? x->length : y->length));
    if (c == 0) c = (x->length > y->length) - (x->length < y->length);
    return c ? c : (x->order > y->order) - (x->order < y->order);
}

static int canonical_tokens(Buffer *b, const Doc *doc, int32_t at, const char *leave_out);

/* An object with its keys sorted (UTF-8 byte order is code point order, as sorted() compares
 * str keys), the last of duplicate keys kept (as orjson keeps it), and the member keyed
 * leave_out (if any) left out. */
static int canonical_object(Buffer *b, const Doc *doc, int32_t at, const char *leave_out) {
    const Token *t = doc->t;
    int32_t n = t[at].count;
    Member small[SMALL_DICT];
    Member *members = n <= SMALL_DICT ? small : PyMem_Malloc(sizeof(Member) * (size_t)n);
    if (members == NULL) {
        PyErr_NoMemory();
        return FAIL;
    }
    int32_t count = 0, key = at + 1;
    for (int32_t m = 0; m < n; m++) {
        Member x = {doc->d + t[key].start + 1, t[key].end - t[key].start - 2, key + 1, m};
        if (!leave_out || !same_text(x.key, x.length, leave_out)) members[count++] = x;
        key = t[key + 1].next;
    }
    qsort(members, (size_t)count, sizeof(Member), member_order);
    int status = buf_char(b, '{') < 0 ? FAIL : OK;
    int first = 1;
    for (int32_t m = 0; m < count && status == OK; m++) {
        const Member *x = &members[m];
        if (m + 1 < count && x->length == members[m + 1].length &&
            memcmp(x->key, members[m + 1].key, (size_t)x->length) == 0)
            continue; /* a later duplicate wins */
        if ((!first && buf_char(b, ',') < 0) || canonical_string(b, x->key, x->length) != OK ||
            buf_char(b, ':') < 0) {
            status = FAIL;
            break;
        }
        first = 0;
        status = canonical_tokens(b, doc, x->value, NULL);
    }
    if (status == OK && buf_char(b, '}') < 0) status = FAIL;
    if (members != small) PyMem_Free(members);
    return status;
}

/* json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True) of the value
 * at token `at`, written from its text. */
static int canonical_tokens(Buffer *b, const Doc *doc, int32_t at, const char *leave_out) {
    const Token *token = &doc->t[at];
    const unsigned char *s = doc->d + token->start;
    Py_ssize_t n = token->end - token->start;
    switch (token->kind) {
    case J_OBJECT:
        return canonical_object(b, doc, at, leave_out);
    case J_ARRAY: {
        if (buf_char(b, '[') < 0) return FAIL;
        int32_t element = at + 1;
        for (int32_t k = 0; k < token->count; k++) {
            if (k && buf_char(b, ',') < 0) return FAIL;
            int status = canonical_tokens(b, doc, element, NULL);
            if (status != OK) return status;
            element = doc->t[element].next;
        }
        return buf_char(b, ']') < 0 ? FAIL : OK;
    }
    case J_STRING:
        return canonical_string(b, s + 1, n - 2);
    case J_INT: /* int.__repr__ is the JSON text, but for "-0" (0) */
        if (n == 2 && s[0] == '-' && s[1] == '0') return DECLINE;
        return buf_put(b, (const char *)s, n) < 0 ? FAIL : OK;
    case J_FLOAT:
        return canonical_float(b, s, n);
    default: /* true, false, null */
        return buf_put(b, (const char *)s, n) < 0 ? FAIL : OK;
    }
}

/* Hooks of record_values: (the well-formed hooks, orjson.loads, sha256_hex, the hash fields
 * of a runtime match, of a documented match). */
enum { R_VALUE_HOOKS, R_LOADS, R_SHA256_HEX, R_MATCHED_RUNTIME, R_MATCHED_DOCUMENTED, R_COUNT };

/* index._hash_fields from the tokens: the stored hash matches the digest of the form its
 * prefix names, or the hook decides (a new reference; None for an envelope it cannot hash;
 * NULL on error; DECLINED when the text is declined). */
static PyObject DECLINED_OBJECT;
#define DECLINED (&DECLINED_OBJECT)

static PyObject *token_hash_fields(const Doc *doc, int32_t envelope, int32_t stored,
                                   PyObject *hooks) {
    const Token *s = &doc->t[stored];
    const char *prefix = "sha256:"; /* hashing.DOCUMENTED_PREFIX */
    Py_ssize_t prefix_length = (Py_ssize_t)strlen(prefix);
    const unsigned char *hash = doc->d + s->start + 1;
    Py_ssize_t hash_length = s->end - s->start - 2;
    int documented = !(s->flags & S_ESCAPED) && hash_length >= prefix_length &&
                     memcmp(hash, prefix, (size_t)prefix_length) == 0;
    if (!(s->flags & S_ESCAPED)) {
        char stack[STACK_BYTES];
        Buffer b = BUFFER_ON(stack);
        int status = canonical_tokens(&b, doc, envelope, documented ? "routingMetadata" : NULL);
        PyObject *digest = NULL;
        if (status == OK) {
            PyObject *canonical = PyBytes_FromStringAndSize(b.data, b.len);
            digest = canonical ? PyObject_CallOneArg(PyTuple_GET_ITEM(hooks, R_SHA256_HEX),
                                                     canonical)
                               : NULL;
            Py_XDECREF(canonical);
        }
        buf_release(&b);
        if (status == FAIL || (status == OK && digest == NULL)) return NULL;
        if (status == DECLINE) return DECLINED;
        int match = 0;
        if (PyUnicode_IS_ASCII(digest)) {
            Py_ssize_t skip = documented ? prefix_length : 0;
            match = PyUnicode_GET_LENGTH(digest) == hash_length - skip &&
                    memcmp(PyUnicode_DATA(digest), hash + skip, (size_t)(hash_length - skip)) == 0;
        }
        Py_DECREF(digest);
        if (match)
            return Py_NewRef(PyTuple_GET_ITEM(hooks, documented ? R_MATCHED_DOCUMENTED
                                                                : R_MATCHED_RUNTIME));
    }
    /* A mismatch (or an escaped hash): the Python path explains it, from orjson's value. */
    PyObject *value = materialize(doc, envelope), *stored_text = NULL, *hashed = NULL;
    if (value != NULL && (stored_text = string_value(doc, stored)) != NULL)
        hashed = PyObject_CallFunctionObjArgs(
            PyTuple_GET_ITEM(PyTuple_GET_ITEM(hooks, R_VALUE_HOOKS), H_HASH_FIELDS), value,
            stored_text, NULL);
    Py_XDECREF(value);
    Py_XDECREF(stored_text);
    return checked_hash_fields(hashed);
}

/* The event facts of an events array's tokens, as event_facts gives them for orjson's list
 * (its last member, the FINAL_RESPONSE payload, is left None: *final_payload is its token,
 * -1 for none). Py_None when the events are not well-formed, DECLINED, or NULL. */
static PyObject *token_event_facts(const Doc *doc, int32_t events, PyObject *sanitize,
                                   int32_t *final_payload) {
    const Token *t = doc->t;
    *final_payload = -1;
    if (kind_of(doc, events) != J_ARRAY) return Py_NewRef(Py_None);
    PyObject *agents = PyList_New(0), *marks = PyList_New(0), *open_by_agent = PyDict_New();
    PyObject *result = NULL;
    Py_ssize_t fallbacks = 0;
    if (agents == NULL || marks == NULL || open_by_agent == NULL) goto done;
    int32_t event = events + 1;
    for (int32_t i = 0; i < t[events].count; i++, event = t[event].next) {
        if (t[event].kind != J_OBJECT) goto not_well_formed;
        int32_t seq = member(doc, event, "seq"), kind = member(doc, event, "type");
        int32_t payload = member(doc, event, "payload");
        if (kind_of(doc, seq) != J_INT || kind_of(doc, kind) != J_STRING ||
            kind_of(doc, payload) != J_OBJECT)
            goto not_well_formed;
        long long number = 0; /* at most 18 digits: the tokenizer declines longer ints */
        const unsigned char *digit = doc->d + t[seq].start;
        if (*digit == '-') goto not_well_formed;
        for (; digit < doc->d + t[seq].end; digit++) number = number * 10 + (*digit - '0');
        if (number != (long long)i + 1) goto not_well_formed;
        if (t[kind].flags & S_ESCAPED) {
            result = DECLINED;
            goto done;
        }
        if (string_is(doc, kind, "FINAL_RESPONSE")) {
            *final_payload = payload;
            continue;
        }
        if (string_is(doc, kind, "FALLBACK_TRIGGERED")) {
            fallbacks++;
            continue;
        }
        int start = string_is(doc, kind, "AGENT_ATTEMPT_START");
        if (!start && !string_is(doc, kind, "AGENT_ATTEMPT_END")) continue;
        int32_t agent_at = member(doc, payload, "agent");
        if (kind_of(doc, agent_at) != J_STRING) goto not_well_formed;
        int32_t status_at = start ? -1 : member(doc, payload, "status");
        PyObject *agent = string_value(doc, agent_at);
        PyObject *status = status_at < 0 ? NULL
                           : kind_of(doc, status_at) == J_STRING ? string_value(doc, status_at)
                                                                 : Py_NewRef(Py_None);
        int failed = agent == NULL || (status_at >= 0 && status == NULL) ||
                     pair_attempt(open_by_agent, agents, marks, agent, start, status) < 0;
        Py_XDECREF(agent);
        Py_XDECREF(status);
        if (failed) goto done;
    }
    result = facts_of(agents, marks, fallbacks, Py_None, sanitize);
    goto done;
not_well_formed:
    *final_payload = -1;
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(agents);
    Py_XDECREF(marks);
    Py_XDECREF(open_by_agent);
    return result;
}

/* len(final_response_problems(final, recorded)) from the tokens: 0 without a call when
 * they are the same text (and recorded is not the documented summary form). */
static Py_ssize_t token_problem_count(const Doc *doc, int32_t final, int32_t recorded,
                                      PyObject *problems) {
    int summary_form = member(doc, recorded, "has_error") >= 0 &&
                       member(doc, recorded, "payload") < 0;
    if (!summary_form && same_tokens(doc, final, recorded)) return 0;
    PyObject *final_value = materialize(doc, final);
    PyObject *recorded_value = final_value ? materialize(doc, recorded) : NULL;
    Py_ssize_t count = recorded_value ? problem_count(final_value, recorded_value, problems) : -1;
    Py_XDECREF(final_value);
    Py_XDECREF(recorded_value);
    return count;
}

/* The parts of a well-formed record from its tokens (new references in *owned, to be
 * released by the caller): OK, DECLINE (not well-formed, or declined), FAIL. */
static int token_parts(const Doc *doc, PyObject *stem, PyObject *hooks, Parts *p,
                       PyObject **owned) {
    PyObject *value_hooks = PyTuple_GET_ITEM(hooks, R_VALUE_HOOKS);
    int32_t header = member(doc, 0, "header"), envelope = member(doc, 0, "envelope");
    if (kind_of(doc, header) != J_OBJECT || kind_of(doc, envelope) != J_OBJECT) return DECLINE;
    int32_t id = member(doc, header, "executionId"), created = member(doc, header, "createdUtcIso");
    int32_t flag = member(doc, header, "replayable"), reason = member(doc, header, "replayableReason");
    int32_t stored = member(doc, header, "envelopeHash");
    if (kind_of(doc, id) != J_STRING || kind_of(doc, created) != J_STRING ||
        (kind_of(doc, flag) != J_TRUE && kind_of(doc, flag) != J_FALSE) ||
        kind_of(doc, stored) != J_STRING)
        return DECLINE;
    if (reason >= 0 && kind_of(doc, reason) != J_NULL && kind_of(doc, reason) != J_STRING)
        return DECLINE;
    int32_t intent = member(doc, envelope, "intent");
    if (kind_of(doc, intent) != J_OBJECT) return DECLINE;
    int32_t decision = member(doc, 0, "routerDecision"), final = member(doc, 0, "finalResponse");
    if (kind_of(doc, decision) == J_NULL) decision = -1;
    if (kind_of(doc, final) == J_NULL) final = -1;
    if ((decision >= 0 && kind_of(doc, decision) != J_OBJECT) ||
        (final >= 0 && kind_of(doc, final) != J_OBJECT))
        return DECLINE;
    if ((owned[0] = p->execution_id = string_value(doc, id)) == NULL) return FAIL;
    int same = PyUnicode_Check(stem) ? PyUnicode_Compare(p->execution_id, stem) == 0 : 0;
    if (PyErr_Occurred()) return FAIL;
    if (!same) return DECLINE;
    int32_t events = member(doc, 0, "events"), final_payload;
    p->facts = owned[1] = token_event_facts(
        doc, events, PyTuple_GET_ITEM(value_hooks, H_SANITIZE_LINE), &final_payload);
    if (p->facts == DECLINED) owned[1] = NULL;
    if (p->facts == NULL) return FAIL;
    if (p->facts == Py_None || p->facts == DECLINED) return DECLINE;
    p->hashed = owned[2] = token_hash_fields(doc, envelope, stored, hooks);
    if (p->hashed == DECLINED) owned[2] = NULL;
    if (p->hashed == NULL) return FAIL;
    if (p->hashed == Py_None || p->hashed == DECLINED) return DECLINE;
    int32_t name = member(doc, intent, "name"), routing = member(doc, envelope, "routing");
    int32_t strategy = member(doc, routing, "strategy");
    int32_t decided = member(doc, decision, "agent");
    int32_t status = member(doc, final, "status");
    if ((owned[3] = p->created = string_value(doc, created)) == NULL) return FAIL;
    p->flag = kind_of(doc, flag) == J_TRUE ? Py_True : Py_False;
    if (reason >= 0 && (owned[4] = p->reason = value_at(doc, reason)) == NULL) return FAIL;
    if (kind_of(doc, name) == J_STRING && (owned[5] = p->name = string_value(doc, name)) == NULL)
        return FAIL;
    if (kind_of(doc, strategy) == J_STRING &&
        (owned[6] = p->strategy = string_value(doc, strategy)) == NULL)
        return FAIL;
    if (decided >= 0 && (owned[7] = p->decided = value_at(doc, decided)) == NULL) return FAIL;
    if (status >= 0 && (owned[8] = p->final_status = value_at(doc, status)) == NULL) return FAIL;
    p->has_final = final >= 0;
    p->final_empty = final >= 0 && doc->t[final].count == 0;
    p->event_count = doc->t[events].count;
    if (final >= 0 && final_payload >= 0) {
        p->problems = token_problem_count(doc, final, final_payload,
                                          PyTuple_GET_ITEM(value_hooks, H_FINAL_PROBLEMS));
        if (p->problems < 0) return FAIL;
    }
    return OK;
}

#define OWNED 9

/* record_values(data, key, stem, size, mtime_ns, hooks) -> tuple | None
 *
 * well_formed_values(orjson.loads(data), key, stem, size, mtime_ns, hooks[0]) for a
 * record's bytes, without parsing them into Python objects; None for anything the lane
 * declines: text orjson would refuse (or might read otherwise: a run of 19 digits, an
 * exponent, a surrogate escape, an escaped key, nesting deeper than LANE_DEPTH), a record
 * that is not well-formed (the caller's other lanes decide). tests/test_bytes_lane.py
 * proves it equal to the definition. hooks: see R_COUNT. */
static PyObject *record_values(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6 || !PyBytes_CheckExact(args[0]) || !check_hooks(args[5], R_COUNT) ||
        !check_hooks(PyTuple_GET_ITEM(args[5], R_VALUE_HOOKS), H_COUNT)) {
        PyErr_SetString(PyExc_TypeError,
                        "record_values(data: bytes, key, stem, size, mtime_ns, hooks)");
        return NULL;
    }
    const unsigned char *d = (const unsigned char *)PyBytes_AS_STRING(args[0]);
    Py_ssize_t n = PyBytes_GET_SIZE(args[0]);
    if (digit_run(d, n, 19)) Py_RETURN_NONE;
    Tokens tokens;
    tokens.at = tokens.small;
    tokens.len = 0;
    tokens.cap = LANE_SMALL;
    int status = tokenize(d, n, &tokens);
    PyObject *result = NULL;
    PyObject *owned[OWNED] = {NULL};
    if (status == OK) {
        Doc doc = {d, tokens.at, PyTuple_GET_ITEM(args[5], R_LOADS)};
        Parts p = {0};
        status = token_parts(&doc, args[2], args[5], &p, owned);
        if (status == OK)
            result = values_of(&p, args, PyTuple_GET_ITEM(args[5], R_VALUE_HOOKS));
    }
    if (status == DECLINE) result = Py_NewRef(Py_None);
    for (int k = 0; k < OWNED; k++) Py_XDECREF(owned[k]);
    if (tokens.at != tokens.small) PyMem_Free(tokens.at);
    return result;
}

/* new_slotted(cls, members, values) -> an instance of cls with each member slot set.
 *
 * What index._summary_of does with one slot setter call per field (a frozen dataclass's
 * __init__ would call object.__setattr__ per field), in one C call: a warm open rebuilds
 * 100,000 summaries. members: cls's __slots__ member descriptors, in field order. */
static PyObject *new_slotted(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3 || !PyType_Check(args[0]) || !PyTuple_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "new_slotted(cls, members: tuple, values)");
        return NULL;
    }
    PyTypeObject *cls = (PyTypeObject *)args[0];
    PyObject *members = args[1];
    PyObject *values = PySequence_Fast(args[2], "values must be a sequence");
    if (values == NULL) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(members);
    if (PySequence_Fast_GET_SIZE(values) != n) {
        Py_DECREF(values);
        PyErr_SetString(PyExc_ValueError, "new_slotted: one value per member");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *member = PyTuple_GET_ITEM(members, i);
        if (!Py_IS_TYPE(member, &PyMemberDescr_Type) ||
            ((PyMemberDescrObject *)member)->d_member->type != T_OBJECT_EX ||
            !PyType_IsSubtype(cls, PyDescr_TYPE(member))) {
            Py_DECREF(values);
            PyErr_SetString(PyExc_TypeError, "new_slotted: members must be cls's slots");
            return NULL;
        }
    }
    PyObject *obj = cls->tp_alloc(cls, 0);
    if (obj != NULL) {
        PyObject **items = PySequence_Fast_ITEMS(values);
        for (Py_ssize_t i = 0; i < n; i++) {
            PyMemberDef *def = ((PyMemberDescrObject *)PyTuple_GET_ITEM(members, i))->d_member;
            PyObject **slot = (PyObject **)((char *)obj + def->offset);
            Py_XSETREF(*slot, Py_NewRef(items[i]));
        }
    }
    Py_DECREF(values);
    return obj;
}

/* stat_stamps(dir_fd, names) -> bytes: index._stamps_of's loop in C. For each name (relative
 * to dir_fd, following a link as os.stat does) four native int64s: size, mtime_ns, ctime_ns,
 * inode (as a signed 64-bit number); -1 four times where it cannot be stat'ed. A re-open
 * stats every file: here that costs the system call alone, not a stat_result each. */
static PyObject *stat_stamps(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyLong_Check(args[0]) || !PyList_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "stat_stamps(dir_fd: int, names: list[str])");
        return NULL;
    }
    long fd = PyLong_AsLong(args[0]);
    if (fd == -1 && PyErr_Occurred()) return NULL;
    if (fd < INT_MIN || fd > INT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "dir_fd out of range");
        return NULL;
    }
    int dir_fd = (int)fd;
    PyObject *names = args[1];
    Py_ssize_t n = PyList_GET_SIZE(names);
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * 4 * (Py_ssize_t)sizeof(int64_t));
    if (out == NULL) return NULL;
    char *packed = PyBytes_AS_STRING(out);
    for (Py_ssize_t i = 0; i < n; i++, packed += sizeof(int64_t[4])) {
        int64_t stamp[4] = {-1, -1, -1, -1};
        PyObject *name = PyList_GET_ITEM(names, i);
        PyObject *encoded = PyUnicode_Check(name) ? PyUnicode_EncodeFSDefault(name) : NULL;
        if (encoded == NULL) {
            Py_DECREF(out);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "names must be str");
            return NULL;
        }
        const char *path = PyBytes_AS_STRING(encoded);
        struct stat st;
        int failed = (Py_ssize_t)strlen(path) != PyBytes_GET_SIZE(encoded);
        if (!failed) {
            Py_BEGIN_ALLOW_THREADS
            failed = fstatat(dir_fd, path, &st, 0) != 0;
            Py_END_ALLOW_THREADS
        }
        Py_DECREF(encoded);
        if (!failed) {
            stamp[0] = (int64_t)st.st_size;
            stamp[1] = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
            stamp[2] = (int64_t)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec;
            stamp[3] = (int64_t)(uint64_t)st.st_ino;
        }
        memcpy(packed, stamp, sizeof stamp);
    }
    return out;
}

/* record_file_values(path, limit, hooks) -> (size, mtime_ns, ctime_ns, inode, data, values)
 * | None
 *
 * index._read_plain and the bytes lane in one call: a plain regular file of at most
 * `limit` bytes read whole in one read (opened without following a link, without
 * blocking on a FIFO), then record_values on its bytes, keyed by the path's last
 * component (the stem: that without ".json"). values is None where the lane declines
 * (the caller parses data itself); None for anything but such a file (the careful reader
 * decides). */
static PyObject *record_file_values(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3 || !PyUnicode_Check(args[0]) || !PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "record_file_values(path: str, limit: int, hooks)");
        return NULL;
    }
    long long limit = PyLong_AsLongLong(args[1]);
    if (limit == -1 && PyErr_Occurred()) return NULL;
    PyObject *encoded = PyUnicode_EncodeFSDefault(args[0]);
    if (encoded == NULL) return NULL;
    const char *path = PyBytes_AS_STRING(encoded);
    if ((Py_ssize_t)strlen(path) != PyBytes_GET_SIZE(encoded)) { /* a NUL: not a file name */
        Py_DECREF(encoded);
        Py_RETURN_NONE;
    }
    struct stat st;
    int fd, ok, flags = O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC;
    /* The event os.open raises: audit hooks see this open as they see Python's. */
    if (PySys_Audit("open", "OOi", args[0], Py_None, flags) < 0) {
        Py_DECREF(encoded);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    fd = open(path, flags);
    ok = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= limit;
    Py_END_ALLOW_THREADS
    Py_DECREF(encoded);
    PyObject *data = ok ? PyBytes_FromStringAndSize(NULL, (Py_ssize_t)st.st_size + 1) : NULL;
    if (ok && data == NULL) {
        close(fd);
        return NULL;
    }
    Py_ssize_t got = -1;
    if (ok) {
        char *buffer = PyBytes_AS_STRING(data);
        Py_BEGIN_ALLOW_THREADS
        got = read(fd, buffer, (size_t)st.st_size + 1);
        Py_END_ALLOW_THREADS
    }
    if (fd >= 0) close(fd);
    if (!ok || got != (Py_ssize_t)st.st_size) { /* not a plain file, or changing under us */
        Py_XDECREF(data);
        Py_RETURN_NONE;
    }
    if (_PyBytes_Resize(&data, got) < 0) return NULL;
    PyObject *name = args[0], *key = NULL, *stem = NULL, *values = NULL, *result = NULL;
    Py_ssize_t length = PyUnicode_GET_LENGTH(name);
    Py_ssize_t slash = PyUnicode_FindChar(name, '/', 0, length, -1);
    if (slash == -2) goto done;
    key = PyUnicode_Substring(name, slash + 1, length);
    if (key == NULL) goto done;
    Py_ssize_t key_length = PyUnicode_GET_LENGTH(key);
    int suffixed = PyUnicode_Tailmatch(key, SUFFIX_JSON, 0, key_length, 1);
    if (suffixed < 0) goto done;
    stem = suffixed ? PyUnicode_Substring(key, 0, key_length - 5) : Py_NewRef(key);
    if (stem == NULL) goto done;
    PyObject *stamp[4] = {
        PyLong_FromLongLong((long long)st.st_size),
        PyLong_FromLongLong((long long)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec),
        PyLong_FromLongLong((long long)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec),
        PyLong_FromUnsignedLongLong((unsigned long long)st.st_ino),
    };
    if (stamp[0] && stamp[1] && stamp[2] && stamp[3]) {
        PyObject *lane_args[6] = {data, key, stem, stamp[0], stamp[1], args[2]};
        values = record_values(module, lane_args, 6);
        if (values != NULL)
            result = PyTuple_Pack(6, stamp[0], stamp[1], stamp[2], stamp[3], data, values);
    }
    for (int k = 0; k < 4; k++) Py_XDECREF(stamp[k]);
done:
    Py_XDECREF(key);
    Py_XDECREF(stem);
    Py_XDECREF(values);
    Py_DECREF(data);
    return result;
}

static PyMethodDef methods[] = {
    {"record_file_values", (PyCFunction)(void (*)(void))record_file_values, METH_FASTCALL,
     "index._read_plain and record_values in one call (see the C source)."},
    {"record_values", (PyCFunction)(void (*)(void))record_values, METH_FASTCALL,
     "well_formed_values for a record's JSON bytes, read without parsing them into Python "
     "objects (see the C source)."},
    {"stat_stamps", (PyCFunction)(void (*)(void))stat_stamps, METH_FASTCALL,
     "index._stamps_of's loop in C: packed (size, mtime_ns, ctime_ns, inode) per name."},
    {"well_formed_values", (PyCFunction)(void (*)(void))well_formed_values, METH_FASTCALL,
     "index.well_formed_values_python for an exact dict (see the C source)."},
    {"object_outline", (PyCFunction)object_outline, METH_O,
     "Byte spans of a cut-short object's whole sections (see the C source)."},
    {"json_row", (PyCFunction)(void (*)(void))json_row, METH_FASTCALL,
     "index.row_of_values's JSON object in one call (see the C source)."},
    {"new_slotted", (PyCFunction)(void (*)(void))new_slotted, METH_FASTCALL,
     "An instance of cls with its __slots__ members set from values (see the C source)."},
    {"event_facts", (PyCFunction)(void (*)(void))event_facts, METH_FASTCALL,
     "index._well_formed_events + index._attempt_facts in one pass (see the C source)."},
    {"has_terminal_controls", (PyCFunction)has_terminal_controls, METH_O,
     "True if UTF-8 JSON text holds a character a terminal would act on."},
    {"canonical_json", (PyCFunction)canonical_json, METH_O,
     "json.dumps(value, sort_keys=True, separators=(',', ':'), ensure_ascii=True) as "
     "bytes for exact JSON types; None for anything else."},
    {"has_long_digit_run", (PyCFunction)(void (*)(void))has_long_digit_run, METH_FASTCALL,
     "True if data holds a run of at least `run` (19) ASCII digits."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_speedups", "Native speed-ups for the index (optional).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__speedups(void) {
    MARK_OK = PyUnicode_FromString("\xe2\x9c\x93"); /* ✓ U+2713 */
    MARK_ERROR = PyUnicode_FromString("\xe2\x9c\x97"); /* ✗ U+2717 */
    MARK_IN_FLIGHT = PyUnicode_FromString("\xe2\x80\xa6"); /* … U+2026 */
    MARK_OTHER = PyUnicode_FromString("?");
    MARK_NONE = PyUnicode_FromString("");
    ARROW = PyUnicode_FromString(" \xe2\x86\x92 "); /* → U+2192 */
    KEY_SEQ = PyUnicode_InternFromString("seq");
    KEY_TYPE = PyUnicode_InternFromString("type");
    KEY_PAYLOAD = PyUnicode_InternFromString("payload");
    KEY_AGENT = PyUnicode_InternFromString("agent");
    KEY_STATUS = PyUnicode_InternFromString("status");
    for (int i = 0; i < K_COUNT; i++)
        if ((KEYS[i] = PyUnicode_InternFromString(KEY_NAMES[i])) == NULL) return NULL;
    WORD_OK = PyUnicode_InternFromString("ok");
    WORD_ERROR = PyUnicode_InternFromString("error");
    WORD_UNKNOWN = PyUnicode_InternFromString("unknown");
    WORD_INVALID = PyUnicode_InternFromString("invalid");
    WHY_INCOMPLETE = PyUnicode_InternFromString("execution_incomplete");
    WHY_RECORDING = PyUnicode_InternFromString("recording_failure");
    WHY_UNMARKED = PyUnicode_InternFromString("marked not replayable (no reason given)");
    SOURCE_RECORD = PyUnicode_InternFromString("record");
    SUFFIX_JSON = PyUnicode_InternFromString(".json");
    if (SUFFIX_JSON == NULL) return NULL;
    if (!WORD_OK || !WORD_ERROR || !WORD_UNKNOWN || !WORD_INVALID || !WHY_INCOMPLETE ||
        !WHY_RECORDING || !WHY_UNMARKED || !SOURCE_RECORD)
        return NULL;
    if (!MARK_OK || !MARK_ERROR || !MARK_IN_FLIGHT || !MARK_OTHER || !MARK_NONE || !ARROW ||
        !KEY_SEQ || !KEY_TYPE || !KEY_PAYLOAD || !KEY_AGENT || !KEY_STATUS)
        return NULL;
    return PyModule_Create(&module_def);
}

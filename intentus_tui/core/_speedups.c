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
    const unsigned char *data = view.buf;
    Py_ssize_t n = view.len;
    int found = 0;
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
        if (j == start) {
            found = 1;
            break;
        }
        start = j; /* data[j-1] is not a digit: a run can only start at j */
    }
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
    while (i < n && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r')) i++;
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
    PyObject *result = NULL, *final_payload = Py_None, *names = NULL, *parts = NULL;
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
        PyObject *stack = PyDict_GetItemWithError(open_by_agent, agent); /* borrowed */
        if (stack == NULL && PyErr_Occurred()) goto done;
        if (start) {
            if (stack == NULL) {
                stack = PyList_New(0);
                if (stack == NULL || PyDict_SetItem(open_by_agent, agent, stack) < 0) {
                    Py_XDECREF(stack);
                    goto done;
                }
                Py_DECREF(stack); /* the dict holds it */
            }
            PyObject *position = PyLong_FromSsize_t(PyList_GET_SIZE(agents));
            int failed = position == NULL || PyList_Append(stack, position) < 0 ||
                         PyList_Append(agents, agent) < 0 ||
                         PyList_Append(marks, MARK_IN_FLIGHT) < 0;
            Py_XDECREF(position);
            if (failed) goto done;
            continue;
        }
        Py_ssize_t position;
        if (stack != NULL && PyList_GET_SIZE(stack) > 0) {
            Py_ssize_t last = PyList_GET_SIZE(stack) - 1;
            position = PyLong_AsSsize_t(PyList_GET_ITEM(stack, last));
            if (PyList_SetSlice(stack, last, last + 1, NULL) < 0) goto done;
        } else {
            position = PyList_GET_SIZE(agents);
            if (PyList_Append(agents, agent) < 0 || PyList_Append(marks, MARK_NONE) < 0) goto done;
        }
        PyObject *mark = end_mark(item(payload, KEY_STATUS));
        if (mark == NULL) goto done;
        Py_INCREF(mark);
        PyList_SetItem(marks, position, mark); /* steals the reference */
    }
    Py_ssize_t count = PyList_GET_SIZE(agents);
    names = PyList_New(count);
    parts = PyList_New(count);
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
    goto done;
decline:
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(agents);
    Py_XDECREF(marks);
    Py_XDECREF(open_by_agent);
    Py_XDECREF(names);
    Py_XDECREF(parts);
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
    *WHY_RECORDING, *WHY_UNMARKED, *SOURCE_RECORD;

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

/* The decided agent: (display_text(agent) or None), printable ASCII without the call. */
static PyObject *decided_agent(PyObject *decision, PyObject *display_text) {
    PyObject *agent = item(decision, KEY_AGENT);
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

/* well_formed_values(raw, key, stem, size, mtime_ns, hooks) -> tuple | None
 *
 * index.well_formed_values_python (the definition; tests/test_speedups.py proves them
 * equal) for a record that is an exact dict: the summary's field values, or None as soon
 * as anything is unusual. hooks: (hash_fields(envelope, stored), sanitize_line,
 * display_text, final_response_problems, ExecutionState.INCOMPLETE,
 * ExecutionState.COMPLETED, LoadStatus.OK, the parsed message). */
static PyObject *well_formed_values(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6 || !PyDict_CheckExact(args[0]) || !PyTuple_CheckExact(args[5]) ||
        PyTuple_GET_SIZE(args[5]) != H_COUNT) {
        PyErr_SetString(PyExc_TypeError,
                        "well_formed_values(raw: dict, key, stem, size, mtime_ns, hooks)");
        return NULL;
    }
    PyObject *raw = args[0], *key = args[1], *stem = args[2], *hooks = args[5];
    PyObject *sanitize = PyTuple_GET_ITEM(hooks, H_SANITIZE_LINE);
    PyObject *header = key_of(raw, K_HEADER), *envelope = key_of(raw, K_ENVELOPE);
    if (header == NULL || !PyDict_CheckExact(header) || envelope == NULL ||
        !PyDict_CheckExact(envelope))
        Py_RETURN_NONE;
    PyObject *execution_id = key_of(header, K_EXECUTION_ID), *created = key_of(header, K_CREATED);
    PyObject *flag = key_of(header, K_REPLAYABLE), *reason = key_of(header, K_REASON);
    PyObject *stored = key_of(header, K_HASH);
    if (execution_id == NULL || !PyUnicode_CheckExact(execution_id) || created == NULL ||
        !PyUnicode_CheckExact(created) || flag == NULL || !PyBool_Check(flag) ||
        stored == NULL || !PyUnicode_CheckExact(stored))
        Py_RETURN_NONE;
    int same = PyUnicode_Check(stem) ? PyUnicode_Compare(execution_id, stem) == 0 : 0;
    if (PyErr_Occurred()) return NULL;
    if (!same) Py_RETURN_NONE;
    if (reason != NULL && reason != Py_None && !PyUnicode_CheckExact(reason)) Py_RETURN_NONE;
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
    PyObject *facts = event_facts(module, facts_args, 2);
    if (facts == NULL || facts == Py_None) return facts;
    PyObject *hashed = PyObject_CallFunctionObjArgs(PyTuple_GET_ITEM(hooks, H_HASH_FIELDS),
                                                    envelope, stored, NULL);
    PyObject *result = NULL, *agent = NULL, *why_clean = NULL, *status = NULL;
    PyObject *fields[4] = {NULL};
    if (hashed == NULL || hashed == Py_None) {
        result = hashed;
        hashed = NULL;
        goto done;
    }
    if (!PyTuple_CheckExact(hashed) || PyTuple_GET_SIZE(hashed) != 3) {
        PyErr_SetString(PyExc_TypeError, "hash_fields must return a 3-tuple or None");
        goto done;
    }
    PyObject *why = Py_None;
    int replayable = 0;
    if (final == NULL) {
        why = WHY_INCOMPLETE;
    } else if (PyDict_GET_SIZE(final) == 0) {
        why = WHY_RECORDING;
    } else if (flag == Py_False) {
        why = reason != NULL && reason != Py_None && PyUnicode_GET_LENGTH(reason) ? reason
                                                                                : WHY_UNMARKED;
    } else {
        replayable = 1;
    }
    PyObject *name = key_of(intent, K_NAME), *routing = key_of(envelope, K_ROUTING);
    PyObject *strategy = routing != NULL && PyDict_CheckExact(routing)
                             ? key_of(routing, K_STRATEGY) : NULL;
    PyObject *last_agent = PyTuple_GET_ITEM(facts, 3), *final_event = PyTuple_GET_ITEM(facts, 5);
    if (decision != NULL) {
        agent = decided_agent(decision, PyTuple_GET_ITEM(hooks, H_DISPLAY_TEXT));
        if (agent == NULL) goto done;
    }
    if (agent == NULL || agent == Py_None) {
        Py_XDECREF(agent);
        agent = Py_NewRef(last_agent);
    }
    Py_ssize_t problems = 0;
    if (final != NULL && final_event != Py_None) {
        problems = problem_count(final, final_event, PyTuple_GET_ITEM(hooks, H_FINAL_PROBLEMS));
        if (problems < 0) goto done;
    }
    fields[0] = clean(execution_id, sanitize);
    fields[1] = clean(created, sanitize);
    fields[2] = clean(name != NULL && PyUnicode_CheckExact(name) ? name : NULL, sanitize);
    fields[3] = clean(strategy != NULL && PyUnicode_CheckExact(strategy) ? strategy : NULL,
                      sanitize);
    for (int i = 0; i < 4; i++)
        if (fields[i] == NULL) goto done;
    why_clean = why == Py_None ? Py_NewRef(Py_None) : clean(why, sanitize);
    if (why_clean == NULL) goto done;
    if (why_clean != Py_None && PyUnicode_GET_LENGTH(why_clean) == 0) {
        Py_DECREF(why_clean);
        why_clean = Py_NewRef(Py_None);
    }
    if (final != NULL) {
        status = normalized_status(item(final, KEY_STATUS), sanitize);
        if (status == NULL) goto done;
    } else {
        status = Py_NewRef(Py_None);
    }
    result = Py_BuildValue(
        "(OOOOOOOOOOOOOOnOOOOOnOOOOO)", key, fields[0], fields[1], fields[2], agent, fields[3],
        PyTuple_GET_ITEM(hooks, final == NULL ? H_INCOMPLETE : H_COMPLETED),
        PyTuple_GET_ITEM(hooks, H_LOAD_OK), PyTuple_GET_ITEM(hooks, H_PARSED_MESSAGE),
        replayable ? Py_True : Py_False, why_clean, PyTuple_GET_ITEM(hashed, 0),
        PyTuple_GET_ITEM(hashed, 1), PyTuple_GET_ITEM(hashed, 2),
        events ? PyList_GET_SIZE(events) : 0, PyTuple_GET_ITEM(facts, 0),
        PyTuple_GET_ITEM(facts, 1), PyTuple_GET_ITEM(facts, 2), PyTuple_GET_ITEM(facts, 4),
        status, problems, args[3], args[4], SOURCE_RECORD, Py_None, Py_None);
done:
    Py_DECREF(facts);
    Py_XDECREF(hashed);
    Py_XDECREF(agent);
    Py_XDECREF(why_clean);
    Py_XDECREF(status);
    for (int i = 0; i < 4; i++) Py_XDECREF(fields[i]);
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

static PyMethodDef methods[] = {
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
    if (!WORD_OK || !WORD_ERROR || !WORD_UNKNOWN || !WORD_INVALID || !WHY_INCOMPLETE ||
        !WHY_RECORDING || !WHY_UNMARKED || !SOURCE_RECORD)
        return NULL;
    if (!MARK_OK || !MARK_ERROR || !MARK_IN_FLIGHT || !MARK_OTHER || !MARK_NONE || !ARROW ||
        !KEY_SEQ || !KEY_TYPE || !KEY_PAYLOAD || !KEY_AGENT || !KEY_STATUS)
        return NULL;
    return PyModule_Create(&module_def);
}

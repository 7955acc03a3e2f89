/* canonical_json, has_long_digit_run, has_terminal_controls: JSON text (see module.c). */
#include "speedups.h"

#define MAX_DEPTH 200

typedef struct {
    char *data;
    Py_ssize_t len;
    Py_ssize_t cap;
    char *stack; /* the caller's stack array data starts in: not freed, copied once outgrown */
    int sort_keys;    /* json.dumps's options, for the encoder */
    int ensure_ascii;
} Buffer;

#define STACK_BYTES 8192
#define BUFFER_ON(array, sort, ascii) {(array), 0, (Py_ssize_t)sizeof(array), (array), (sort), (ascii)}

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

/* One character that encode_basestring_ascii escapes, written at out (for '"', '\\' and
 * controls below ' ', the only ones encode_basestring escapes, both write the same). */
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

/* One character as encode_basestring writes it, as UTF-8: only '"', '\\' and controls
 * below ' ' escaped (as encode_basestring_ascii escapes them), the rest as it is, DEL
 * included; a lone surrogate as the three bytes of its code point, as "surrogatepass"
 * writes it. */
static inline char *utf8_char(char *out, Py_UCS4 c) {
    if (c < 0x80) {
        if (c >= ' ' && c != '\\' && c != '"') {
            *out++ = (char)c;
            return out;
        }
        return escaped(out, c);
    }
    if (c < 0x800) {
        *out++ = (char)(0xc0 | (c >> 6));
    } else {
        if (c < 0x10000) {
            *out++ = (char)(0xe0 | (c >> 12));
        } else {
            *out++ = (char)(0xf0 | (c >> 18));
            *out++ = (char)(0x80 | ((c >> 12) & 0x3f));
        }
        *out++ = (char)(0x80 | ((c >> 6) & 0x3f));
    }
    *out++ = (char)(0x80 | (c & 0x3f));
    return out;
}

/* A 1-byte-kind string's characters, 8 at a time: a word with no escape is copied whole;
 * otherwise the bytes before its first escape are, then that one is escaped. (The lowest
 * marked byte is always a real one: the tricks' borrows and carries only run upwards.)
 * Without ensure_ascii a marked byte is written by utf8_char (DEL and Latin-1 letters
 * are marked too, and written as they are, as UTF-8). */
static char *encode_bytes(char *out, const unsigned char *s, Py_ssize_t n, int ensure_ascii) {
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
        out = ensure_ascii ? escaped(out + plain, s[i + plain]) : utf8_char(out + plain, s[i + plain]);
        i += plain + 1;
    }
#endif
    if (!ensure_ascii) {
        for (; i < n; i++) out = utf8_char(out, s[i]);
        return out;
    }
    for (; i < n; i++) out = plain_char(s[i]) ? (*out = (char)s[i], out + 1) : escaped(out, s[i]);
    return out;
}

/* encode_basestring_ascii (or encode_basestring, as UTF-8), as CPython's _json.c writes it. */
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
        out = encode_bytes(out, data, n, b->ensure_ascii);
    } else if (!b->ensure_ascii) {
        for (Py_ssize_t i = 0; i < n; i++) out = utf8_char(out, PyUnicode_READ(kind, data, i));
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
    if (!b->sort_keys) {
        /* json.dumps without sort_keys: the dict's own (insertion) order, as it is */
    } else if (count <= SMALL_DICT) { /* insertion sort: record dicts are small */
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

SPEEDUP PyObject *canonical_json(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 1 || nargs > 3) {
        PyErr_SetString(PyExc_TypeError, "canonical_json(value, sort_keys=True, ensure_ascii=True)");
        return NULL;
    }
    int sort_keys = nargs > 1 ? PyObject_IsTrue(args[1]) : 1;
    int ensure_ascii = nargs > 2 ? PyObject_IsTrue(args[2]) : 1;
    if (sort_keys < 0 || ensure_ascii < 0) return NULL;
    PyObject *value = args[0];
    char stack[STACK_BYTES];
    Buffer b = BUFFER_ON(stack, sort_keys, ensure_ascii);
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

SPEEDUP PyObject *has_long_digit_run(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
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
SPEEDUP PyObject *has_terminal_controls(PyObject *module, PyObject *arg) {
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return NULL;
    const unsigned char *d = view.buf;
    Py_ssize_t n = view.len;
    int found = 0;
    for (Py_ssize_t i = 0; i < n && !found; i++) {
        /* Eight bytes below 0x7f at a time: no byte's high bit, none once each is one more
         * (a listing row is mostly ASCII, and non-ASCII in its marks: 11,800 instructions a
         * row byte by byte, 2,900 so; callgrind, 2,000 generated records). */
        while (i + 8 <= n) {
            uint64_t w;
            memcpy(&w, d + i, sizeof w);
            if ((w | (w + UINT64_C(0x0101010101010101))) & UINT64_C(0x8080808080808080)) break;
            i += 8;
        }
        if (i >= n) break;
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

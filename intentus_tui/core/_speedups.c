/*
 * Schema-free native helpers (optional: each has a pure-Python definition that runs
 * where this is not built, and tests/core/test_native.py proves the two equal). Nothing
 * here knows a record field, an event type or a summary's shape: only JSON text, bytes
 * and stat(2).
 *
 * canonical_json(value, sort_keys=True, ensure_ascii=True, /) -> bytes | None
 *     Exactly json.dumps(value, sort_keys=sort_keys, separators=(",", ":"),
 *     ensure_ascii=ensure_ascii).encode("utf-8", "surrogatepass") for a value made
 *     only of exact JSON types
 *     (dict with str keys, list, tuple, str, int, float, bool, None); None for
 *     anything else (a subclass, a non-str key, nesting deeper than MAX_DEPTH,
 *     an int repr that raises), which the caller then encodes with json.dumps
 *     itself. Every piece is written as CPython's own json encoder writes it:
 *     repr for ints and floats, NaN/Infinity/-Infinity, and the escapes of
 *     encode_basestring_ascii (lowercase hex, surrogate pairs above U+FFFF), or
 *     without ensure_ascii those of encode_basestring (only '"', '\\' and controls
 *     below U+0020; every other character as UTF-8, a lone surrogate as its three
 *     bytes, as "surrogatepass" writes it). Without sort_keys a dict is written in
 *     its insertion order, as json.dumps iterates it.
 *     It runs no Python code and never releases the GIL, so the borrowed keys and
 *     values it sorts cannot change under it.
 *
 * has_terminal_controls(data) -> bool
 *     Does UTF-8 JSON text hold a character sanitize.json_text_safe would escape?
 *
 * has_long_digit_run(data, run=19) -> bool
 *     Is there a run of at least `run` ASCII digits in data? (an integer orjson
 *     might read differently from Python's json).
 *
 * stat_stamps(dir_fd, names[, uid, gid, groups]) -> bytes
 *     Packed (size, mtime_ns, ctime_ns, inode) of each name: see below.
 *
 * write_new_files(dir_fd, files) -> list[int]
 *     Create and write each (name, data, mtime_ns) of files: see below.
 *
 * read_plain_file(path, limit) -> (data, size, mtime_ns, ctime_ns, inode) | None
 *     A plain regular file read whole in one go, with its stamp: see below.
 *
 * write_in_key_order(fd, blocks, separator) -> int
 *     Write rows held in blocks to fd in the order of their keys: see below.
 *
 * copy_in_key_order(out_fd, in_fd, keys, starts, lengths, separator) -> int
 *     Copy rows from one file to another in the order of their keys: see below.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <unistd.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <errno.h>

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

static PyObject *canonical_json(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
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


/* Nanoseconds since the epoch, modulo 2**64 (as cache.packable takes it): unsigned
 * arithmetic wraps where tv_sec * 1e9 in signed 64 bits would overflow (undefined
 * behaviour) for a file dated after 2262. */
static int64_t stamp_ns(struct timespec t) {
    uint64_t ns = (uint64_t)(int64_t)t.tv_sec * UINT64_C(1000000000) + (uint64_t)t.tv_nsec;
    int64_t out;
    memcpy(&out, &ns, sizeof out);
    return out;
}

/* stat_stamps(dir_fd, names) -> bytes: scan.python_stamps_of's loop in C. For each name
 * (relative to dir_fd, following a link as os.stat does) four native int64s: size,
 * mtime_ns, ctime_ns, inode, each modulo 2**64 as cache.packable packs them; -1 four
 * times where it cannot be stat'ed (or, given a reader, where its mode bits deny that
 * reader: scan.python_stamps_of). A re-open stats every file: here that costs the
 * system call alone, not a stat_result each. The names are copied into a tuple first:
 * the GIL is released around each stat, and another thread may change the list then. */
/* Whether a file's mode bits let this reader (uid, gid, supplementary groups) read it, as
 * scan.mode_lets_read decides. */
static int mode_lets_read(const struct stat *st, long uid, long gid, PyObject *groups) {
    if ((long)st->st_uid == uid) return (st->st_mode & S_IRUSR) != 0;
    int member = (long)st->st_gid == gid;
    for (Py_ssize_t i = 0; !member && i < PyTuple_GET_SIZE(groups); i++)
        member = PyLong_AsLong(PyTuple_GET_ITEM(groups, i)) == (long)st->st_gid;
    return (st->st_mode & (member ? S_IRGRP : S_IROTH)) != 0;
}

static PyObject *stat_stamps(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if ((nargs != 2 && nargs != 5) || !PyLong_Check(args[0]) || !PyList_Check(args[1]) ||
        (nargs == 5 && (!PyLong_Check(args[2]) || !PyLong_Check(args[3]) ||
                        !PyTuple_Check(args[4])))) {
        PyErr_SetString(PyExc_TypeError, "stat_stamps(dir_fd: int, names: list[str]"
                                         "[, uid: int, gid: int, groups: tuple[int, ...]])");
        return NULL;
    }
    long uid = -1, gid = -1;
    PyObject *groups = NULL; /* with a reader: a file its mode bits deny it is never fresh */
    if (nargs == 5) {
        uid = PyLong_AsLong(args[2]);
        gid = PyLong_AsLong(args[3]);
        if (PyErr_Occurred()) return NULL;
        groups = args[4];
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(groups); i++) {
            if (!PyLong_Check(PyTuple_GET_ITEM(groups, i))) {
                PyErr_SetString(PyExc_TypeError, "groups must be ints");
                return NULL;
            }
        }
    }
    long fd = PyLong_AsLong(args[0]);
    if (fd == -1 && PyErr_Occurred()) return NULL;
    if (fd < INT_MIN || fd > INT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "dir_fd out of range");
        return NULL;
    }
    int dir_fd = (int)fd;
    PyObject *names = PyList_AsTuple(args[1]); /* owned: its items cannot go away */
    if (names == NULL) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * 4 * (Py_ssize_t)sizeof(int64_t));
    if (out == NULL) {
        Py_DECREF(names);
        return NULL;
    }
    char *packed = PyBytes_AS_STRING(out);
    for (Py_ssize_t i = 0; i < n; i++, packed += sizeof(int64_t[4])) {
        int64_t stamp[4] = {-1, -1, -1, -1};
        PyObject *name = PyTuple_GET_ITEM(names, i);
        PyObject *encoded = PyUnicode_Check(name) ? PyUnicode_EncodeFSDefault(name) : NULL;
        if (encoded == NULL) {
            Py_DECREF(out);
            Py_DECREF(names);
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
        if (!failed && (groups == NULL || mode_lets_read(&st, uid, gid, groups))) {
            uint64_t inode = (uint64_t)st.st_ino;
            stamp[0] = (int64_t)st.st_size;
            stamp[1] = stamp_ns(st.st_mtim);
            stamp[2] = stamp_ns(st.st_ctim);
            memcpy(&stamp[3], &inode, sizeof inode);
        }
        memcpy(packed, stamp, sizeof stamp);
    }
    Py_DECREF(names);
    return out;
}

/* write_new_files(dir_fd, files) -> list[int]: tar_lane.python_write_new_files's loop in
 * C, with the GIL released for the whole batch (a thread writing a batch of files while
 * another parses the next one would otherwise wait for the GIL after every system
 * call). Each item of files is (name: bytes, data: bytes, mtime_ns: int, -1 for none):
 * the file name relative to dir_fd is created with O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode
 * 0666 (less the umask), holds data, and has mtime_ns as both its access and
 * modification times, set last. Per item 0, or the errno that stopped it (a file that
 * failed after it was created is removed). The items are copied into a tuple and checked
 * first: while the GIL is released nothing can change or free them. */
static PyObject *write_new_files(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyLong_Check(args[0]) || !PyList_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError,
                        "write_new_files(dir_fd: int, files: list[tuple[bytes, bytes, int]])");
        return NULL;
    }
    long fd_arg = PyLong_AsLong(args[0]);
    if (fd_arg == -1 && PyErr_Occurred()) return NULL;
    if (fd_arg < INT_MIN || fd_arg > INT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "dir_fd out of range");
        return NULL;
    }
    int dir_fd = (int)fd_arg;
    PyObject *files = PyList_AsTuple(args[1]);
    if (files == NULL) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(files);
    long long *times = PyMem_Calloc((size_t)(n ? n : 1), sizeof(long long));
    int *results = PyMem_Calloc((size_t)(n ? n : 1), sizeof(int));
    if (times == NULL || results == NULL) {
        PyMem_Free(times);
        PyMem_Free(results);
        Py_DECREF(files);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(files, i);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 3 ||
            !PyBytes_Check(PyTuple_GET_ITEM(item, 0)) ||
            !PyBytes_Check(PyTuple_GET_ITEM(item, 1)) ||
            !PyLong_Check(PyTuple_GET_ITEM(item, 2))) {
            PyErr_SetString(PyExc_TypeError, "each file must be (bytes, bytes, int)");
            goto fail;
        }
        PyObject *name = PyTuple_GET_ITEM(item, 0);
        if ((Py_ssize_t)strlen(PyBytes_AS_STRING(name)) != PyBytes_GET_SIZE(name)) {
            PyErr_SetString(PyExc_ValueError, "embedded null byte");
            goto fail;
        }
        times[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(item, 2));
        if (times[i] == -1 && PyErr_Occurred()) goto fail;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(files, i);
        const char *name = PyBytes_AS_STRING(PyTuple_GET_ITEM(item, 0));
        const char *data = PyBytes_AS_STRING(PyTuple_GET_ITEM(item, 1));
        Py_ssize_t left = PyBytes_GET_SIZE(PyTuple_GET_ITEM(item, 1));
        int fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0) {
            results[i] = errno ? errno : EIO;
            continue;
        }
        int error = 0;
        while (left > 0) {
            ssize_t wrote = write(fd, data, (size_t)left);
            if (wrote < 0) {
                if (errno == EINTR) continue;
                error = errno ? errno : EIO;
                break;
            }
            data += wrote;
            left -= wrote;
        }
        if (!error && times[i] >= 0) {
            struct timespec when[2];
            when[0].tv_sec = (time_t)(times[i] / 1000000000LL);
            when[0].tv_nsec = (long)(times[i] % 1000000000LL);
            when[1] = when[0];
            if (futimens(fd, when) != 0) error = errno ? errno : EIO;
        }
        if (close(fd) != 0 && !error && errno != EINTR) error = errno ? errno : EIO;
        if (error) unlinkat(dir_fd, name, 0);
        results[i] = error;
    }
    Py_END_ALLOW_THREADS
    PyObject *out = PyList_New(n);
    if (out == NULL) goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *code = PyLong_FromLong(results[i]);
        if (code == NULL) {
            Py_DECREF(out);
            goto fail;
        }
        PyList_SET_ITEM(out, i, code);
    }
    PyMem_Free(times);
    PyMem_Free(results);
    Py_DECREF(files);
    return out;
fail:
    PyMem_Free(times);
    PyMem_Free(results);
    Py_DECREF(files);
    return NULL;
}

/* A stat time as a Python int of nanoseconds: exact for any date (a file dated after 2262
 * overflows 64 bits; then the sum is made with Python ints). */
static PyObject *time_ns_of(struct timespec t) {
    long long scaled, total;
    if (!__builtin_mul_overflow((long long)t.tv_sec, 1000000000LL, &scaled) &&
        !__builtin_add_overflow(scaled, (long long)t.tv_nsec, &total))
        return PyLong_FromLongLong(total);
    PyObject *sec = PyLong_FromLongLong((long long)t.tv_sec);
    PyObject *billion = PyLong_FromLong(1000000000L);
    PyObject *nsec = PyLong_FromLong((long)t.tv_nsec);
    PyObject *product = sec && billion ? PyNumber_Multiply(sec, billion) : NULL;
    PyObject *sum = product && nsec ? PyNumber_Add(product, nsec) : NULL;
    Py_XDECREF(sec);
    Py_XDECREF(billion);
    Py_XDECREF(nsec);
    Py_XDECREF(product);
    return sum;
}

/* read_plain_file(path, limit) -> (data, size, mtime_ns, ctime_ns, inode) | None:
 * fsio.python_read_plain_file in C. The file is opened without following a link and
 * without blocking (a FIFO gives no data), must be a regular file of at most limit bytes,
 * and is read whole by one read(2) of its size plus one byte: a file that is not exactly
 * that size as it is read (growing, shrinking) gives None, as does any failure (EINTR
 * included): the caller then takes its careful reader. The path is encoded into an owned
 * bytes object and the data written into a bytes object no one else holds yet, so the
 * GIL is released around the system calls. */
static PyObject *read_plain_file(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "read_plain_file(path: str, limit: int)");
        return NULL;
    }
    long long limit = PyLong_AsLongLong(args[1]);
    if (limit == -1 && PyErr_Occurred()) return NULL;
    if (!PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "read_plain_file: path must be str");
        return NULL;
    }
    PyObject *encoded = PyUnicode_EncodeFSDefault(args[0]);
    if (encoded == NULL) return NULL;
    const char *path = PyBytes_AS_STRING(encoded);
    if ((Py_ssize_t)strlen(path) != PyBytes_GET_SIZE(encoded)) { /* an embedded NUL */
        Py_DECREF(encoded);
        Py_RETURN_NONE;
    }
    struct stat st;
    int fd, ok;
    Py_BEGIN_ALLOW_THREADS
    fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    ok = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= limit &&
         st.st_size < PY_SSIZE_T_MAX;
    Py_END_ALLOW_THREADS
    Py_DECREF(encoded);
    if (!ok) {
        if (fd >= 0) close(fd);
        Py_RETURN_NONE;
    }
    Py_ssize_t size = (Py_ssize_t)st.st_size;
    PyObject *data = PyBytes_FromStringAndSize(NULL, size + 1);
    if (data == NULL) {
        close(fd);
        return NULL;
    }
    ssize_t got;
    Py_BEGIN_ALLOW_THREADS
    got = read(fd, PyBytes_AS_STRING(data), (size_t)size + 1);
    close(fd);
    Py_END_ALLOW_THREADS
    if (got != size) {
        Py_DECREF(data);
        Py_RETURN_NONE;
    }
    if (_PyBytes_Resize(&data, size) != 0) return NULL;
    PyObject *mtime = time_ns_of(st.st_mtim);
    PyObject *ctime = mtime ? time_ns_of(st.st_ctim) : NULL;
    PyObject *out = ctime ? Py_BuildValue("(NnNNK)", data, size, mtime, ctime,
                                          (unsigned long long)st.st_ino)
                          : NULL;
    if (out == NULL) {
        if (ctime == NULL) { /* Py_BuildValue steals the N arguments even when it fails */
            Py_DECREF(data);
            Py_XDECREF(mtime);
        }
    }
    return out;
}

/* One row of write_in_key_order or copy_in_key_order: its key (and the key's head, for a
 * quick comparison), and where its bytes are: in memory, with whether its block holds the
 * separator after it (then one iovec writes both), or at an offset in a file. */
typedef struct {
    uint64_t head; /* the key's first 8 bytes, big-endian, zero-padded: most keys differ there */
    const char *key;
    Py_ssize_t key_len;
    const char *row;    /* write_in_key_order: the row in memory */
    Py_ssize_t offset;  /* copy_in_key_order: where the row starts in its file */
    Py_ssize_t row_len;
    int separated;
} KeyedRow;

static uint64_t key_head(const char *key, Py_ssize_t len) {
    uint64_t head = 0;
    for (int i = 0; i < 8; i++)
        head = (head << 8) | (i < len ? (unsigned char)key[i] : 0u);
    return head;
}

/* Bytes order: memcmp over the shorter key, then the shorter first. The heads decide
 * first where they differ (as memcmp would: a zero pad sorts as an end does). */
static inline int key_order(const KeyedRow *a, const KeyedRow *b) {
    if (a->head != b->head) return a->head < b->head ? -1 : 1;
    Py_ssize_t n = a->key_len < b->key_len ? a->key_len : b->key_len;
    int c = memcmp(a->key, b->key, (size_t)n);
    if (c) return c;
    return (a->key_len > b->key_len) - (a->key_len < b->key_len);
}

/* A stable natural merge sort: the rows' runs already in order (each block's, as its
 * maker sorted them) are found, then merged two by two; equal keys keep their places. */
static int sort_rows(KeyedRow *rows, Py_ssize_t n) {
    if (n < 2) return 0;
    KeyedRow *spare = PyMem_Malloc((size_t)n * sizeof(KeyedRow));
    Py_ssize_t *starts = PyMem_Malloc((size_t)(n + 1) * sizeof(Py_ssize_t));
    if (spare == NULL || starts == NULL) {
        PyMem_Free(spare);
        PyMem_Free(starts);
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t runs = 0;
    starts[runs++] = 0;
    for (Py_ssize_t i = 1; i < n; i++)
        if (key_order(&rows[i - 1], &rows[i]) > 0) starts[runs++] = i;
    KeyedRow *from = rows, *to = spare;
    while (runs > 1) {
        Py_ssize_t merged = 0;
        for (Py_ssize_t r = 0; r < runs; r += 2) {
            Py_ssize_t lo = starts[r];
            Py_ssize_t mid = r + 1 < runs ? starts[r + 1] : n;
            Py_ssize_t hi = r + 2 < runs ? starts[r + 2] : n;
            Py_ssize_t a = lo, b = mid, k = lo;
            while (a < mid && b < hi)
                to[k++] = key_order(&from[b], &from[a]) < 0 ? from[b++] : from[a++];
            while (a < mid) to[k++] = from[a++];
            while (b < hi) to[k++] = from[b++];
            starts[merged++] = lo;
        }
        runs = merged;
        KeyedRow *swap = from;
        from = to;
        to = swap;
    }
    if (from != rows) memcpy(rows, from, (size_t)n * sizeof(KeyedRow));
    PyMem_Free(spare);
    PyMem_Free(starts);
    return 0;
}

/* writev(2) every iovec, resuming after a short write; EINTR runs the signal handlers
 * (an error from one stops the write). The GIL is released around each call. */
static int write_all(int fd, struct iovec *iov, Py_ssize_t count) {
    long most = sysconf(_SC_IOV_MAX);
    int limit = most > 0 && most < INT_MAX ? (int)most : 1024;
    while (count > 0) {
        int take = count < limit ? (int)count : limit;
        ssize_t wrote;
        Py_BEGIN_ALLOW_THREADS
        wrote = writev(fd, iov, take);
        Py_END_ALLOW_THREADS
        if (wrote < 0) {
            if (errno == EINTR) {
                if (PyErr_CheckSignals() < 0) return -1;
                continue;
            }
            PyErr_SetFromErrno(PyExc_OSError);
            return -1;
        }
        if (wrote == 0) {
            errno = EIO;
            PyErr_SetFromErrno(PyExc_OSError);
            return -1;
        }
        while (count > 0 && (size_t)wrote >= iov->iov_len) {
            wrote -= (ssize_t)iov->iov_len;
            iov++;
            count--;
        }
        if (wrote > 0) {
            iov->iov_base = (char *)iov->iov_base + wrote;
            iov->iov_len -= (size_t)wrote;
        }
    }
    return 0;
}

/* write_in_key_order(fd, blocks, separator) -> int: what render.listing_order's
 * time_ordered_rows gives for RowBlocks, written to fd as write_gathered writes it, in C
 * (the rows in the order of their keys, joined by separator; the bytes written). Each block is a tuple (rows: bytes,
 * keys: list[bytes], lengths: list[int]): rows holds its rows one after another, each
 * followed by separator but the last, lengths[i] the length of the i-th row and keys[i]
 * its key; a block whose rows are b"" holds none, whatever its lists say. Rows are
 * ordered by their keys as bytes; equal keys keep the order of the blocks and of the
 * rows in them. Everything is checked and the rows sorted holding the
 * GIL (so no key can change); the blocks are copied into a tuple first, which owns every
 * block, and so every rows buffer, while the GIL is released to write. */
static PyObject *write_in_key_order(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3 || !PyLong_Check(args[0]) || !PyBytes_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError,
                        "write_in_key_order(fd: int, blocks: Sequence[tuple[bytes, "
                        "list[bytes], list[int]]], separator: bytes)");
        return NULL;
    }
    int fd = PyObject_AsFileDescriptor(args[0]);
    if (fd < 0) return NULL;
    PyObject *blocks = PySequence_Tuple(args[1]);
    if (blocks == NULL) return NULL;
    PyObject *separator = Py_NewRef(args[2]);
    const char *sep = PyBytes_AS_STRING(separator);
    Py_ssize_t sep_len = PyBytes_GET_SIZE(separator);
    KeyedRow *rows = NULL;
    struct iovec *iov = NULL;
    PyObject *result = NULL;
    Py_ssize_t total = 0;
    for (Py_ssize_t b = 0; b < PyTuple_GET_SIZE(blocks); b++) {
        PyObject *block = PyTuple_GET_ITEM(blocks, b);
        if (!PyTuple_Check(block) || PyTuple_GET_SIZE(block) != 3 ||
            !PyBytes_Check(PyTuple_GET_ITEM(block, 0)) ||
            !PyList_Check(PyTuple_GET_ITEM(block, 1)) ||
            !PyList_Check(PyTuple_GET_ITEM(block, 2)) ||
            PyList_GET_SIZE(PyTuple_GET_ITEM(block, 1)) !=
                PyList_GET_SIZE(PyTuple_GET_ITEM(block, 2))) {
            PyErr_SetString(PyExc_TypeError,
                            "each block must be (bytes, list[bytes], list[int]) of one length");
            goto done;
        }
        if (PyBytes_GET_SIZE(PyTuple_GET_ITEM(block, 0)))
            total += PyList_GET_SIZE(PyTuple_GET_ITEM(block, 1));
    }
    rows = PyMem_Malloc((size_t)(total ? total : 1) * sizeof(KeyedRow));
    iov = PyMem_Malloc((size_t)(2 * total + 1) * sizeof(struct iovec));
    if (rows == NULL || iov == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t n = 0;
    for (Py_ssize_t b = 0; b < PyTuple_GET_SIZE(blocks); b++) {
        PyObject *block = PyTuple_GET_ITEM(blocks, b);
        PyObject *data = PyTuple_GET_ITEM(block, 0);
        PyObject *keys = PyTuple_GET_ITEM(block, 1);
        PyObject *lengths = PyTuple_GET_ITEM(block, 2);
        const char *base = PyBytes_AS_STRING(data);
        Py_ssize_t size = PyBytes_GET_SIZE(data), at = 0;
        if (size == 0) continue; /* no rows (as time_ordered_rows holds it) */
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(keys); i++) {
            PyObject *key = PyList_GET_ITEM(keys, i);
            Py_ssize_t length = PyLong_AsSsize_t(PyList_GET_ITEM(lengths, i));
            if (length == -1 && PyErr_Occurred()) goto done;
            if (!PyBytes_Check(key) || length < 0 || length > size - at) {
                PyErr_SetString(PyExc_ValueError,
                                "a key that is not bytes, or a row beyond its block");
                goto done;
            }
            KeyedRow *row = &rows[n++];
            row->key = PyBytes_AS_STRING(key);
            row->key_len = PyBytes_GET_SIZE(key);
            row->head = key_head(row->key, row->key_len);
            row->row = base + at;
            row->row_len = length;
            at += length;
            row->separated = sep_len <= size - at && memcmp(base + at, sep, (size_t)sep_len) == 0;
            at = sep_len <= size - at ? at + sep_len : size; /* the next row's start */
        }
    }
    if (sort_rows(rows, n) < 0) goto done;
    Py_ssize_t count = 0, written = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int more = i < n - 1; /* a separator after this row */
        iov[count].iov_base = (void *)rows[i].row;
        iov[count].iov_len = (size_t)rows[i].row_len;
        if (more && rows[i].separated) /* its own separator follows it in its block */
            iov[count].iov_len += (size_t)sep_len;
        written += (Py_ssize_t)iov[count].iov_len;
        count += iov[count].iov_len > 0; /* writev may answer 0 for nothing to write */
        if (more && !rows[i].separated) {
            iov[count].iov_base = (void *)sep;
            iov[count++].iov_len = (size_t)sep_len;
            written += sep_len;
        }
    }
    if (write_all(fd, iov, count) < 0) goto done;
    result = PyLong_FromSsize_t(written);
done:
    PyMem_Free(rows);
    PyMem_Free(iov);
    Py_DECREF(separator);
    Py_DECREF(blocks);
    return result;
}

/* A buffer of output filled from pread(2) and written out when full (GIL released). */
typedef struct {
    char *data;
    Py_ssize_t len, cap;
    int out_fd;
} Spool;

static int spool_flush(Spool *spool) {
    struct iovec one = {spool->data, (size_t)spool->len};
    if (spool->len && write_all(spool->out_fd, &one, 1) < 0) return -1;
    spool->len = 0;
    return 0;
}

static int spool_put(Spool *spool, const char *data, Py_ssize_t n) {
    if (spool->len + n > spool->cap && spool_flush(spool) < 0) return -1;
    memcpy(spool->data + spool->len, data, (size_t)n);
    spool->len += n;
    return 0;
}

/* length bytes of in_fd from offset onto the spool, a piece at a time. A file shorter
 * than its places say is an error (EIO), not a short row. */
static int spool_copy(Spool *spool, int in_fd, Py_ssize_t offset, Py_ssize_t length) {
    while (length > 0) {
        if (spool->len == spool->cap && spool_flush(spool) < 0) return -1;
        Py_ssize_t room = spool->cap - spool->len;
        size_t want = (size_t)(length < room ? length : room);
        ssize_t got;
        Py_BEGIN_ALLOW_THREADS
        got = pread(in_fd, spool->data + spool->len, want, (off_t)offset);
        Py_END_ALLOW_THREADS
        if (got < 0 && errno == EINTR) {
            if (PyErr_CheckSignals() < 0) return -1;
            continue;
        }
        if (got <= 0) {
            errno = got < 0 ? errno : EIO;
            PyErr_SetFromErrno(PyExc_OSError);
            return -1;
        }
        spool->len += got;
        offset += got;
        length -= got;
    }
    return 0;
}

static int int64_view(PyObject *object, Py_buffer *view, const char *what) {
    if (PyObject_GetBuffer(object, view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->itemsize != 8 || view->format == NULL || strcmp(view->format, "q") != 0) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_TypeError, "%s must be an array('q')", what);
        return -1;
    }
    return 0;
}

#define SPOOL_BYTES (1 << 20)

/* copy_in_key_order(out_fd, in_fd, keys, starts, lengths, separator) -> int: the ordered
 * copy render.listing_order.open_time_ordered writes of a file of rows, in C (the bytes
 * written). Row i of in_fd is lengths[i] bytes at starts[i] (both array('q')), its key
 * keys[i] (a list of bytes); the rows are written to out_fd in the order of their keys as
 * write_in_key_order orders them (equal keys: in their order in the lists), joined by
 * separator. Each row is read with pread(2) into a spool of SPOOL_BYTES written out when
 * full, so memory stays small for a file of any size; the GIL is released around each
 * system call, after everything the rows need was copied out of the Python objects. */
static PyObject *copy_in_key_order(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6 || !PyList_Check(args[2]) || !PyBytes_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError,
                        "copy_in_key_order(out_fd: int, in_fd: int, keys: list[bytes], "
                        "starts: array('q'), lengths: array('q'), separator: bytes)");
        return NULL;
    }
    int out_fd = PyObject_AsFileDescriptor(args[0]);
    int in_fd = out_fd < 0 ? -1 : PyObject_AsFileDescriptor(args[1]);
    if (in_fd < 0) return NULL;
    Py_buffer starts, lengths;
    if (int64_view(args[3], &starts, "starts") < 0) return NULL;
    if (int64_view(args[4], &lengths, "lengths") < 0) {
        PyBuffer_Release(&starts);
        return NULL;
    }
    PyObject *keys = args[2];
    PyObject *separator = Py_NewRef(args[5]);
    Py_ssize_t n = PyList_GET_SIZE(keys);
    KeyedRow *rows = NULL;
    Spool spool = {NULL, 0, SPOOL_BYTES, out_fd};
    PyObject *result = NULL;
    if (starts.len / 8 != n || lengths.len / 8 != n) {
        PyErr_SetString(PyExc_ValueError, "keys, starts and lengths differ in length");
        goto done;
    }
    rows = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(KeyedRow));
    spool.data = PyMem_Malloc(SPOOL_BYTES);
    if (rows == NULL || spool.data == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    const long long *at = starts.buf, *length = lengths.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *key = PyList_GET_ITEM(keys, i);
        if (!PyBytes_Check(key) || at[i] < 0 || length[i] < 0 ||
            length[i] > PY_SSIZE_T_MAX - at[i]) {
            PyErr_SetString(PyExc_ValueError, "a key that is not bytes, or a row out of range");
            goto done;
        }
        rows[i].key = PyBytes_AS_STRING(key);
        rows[i].key_len = PyBytes_GET_SIZE(key);
        rows[i].head = key_head(rows[i].key, rows[i].key_len);
        rows[i].row = NULL;
        rows[i].offset = (Py_ssize_t)at[i];
        rows[i].row_len = (Py_ssize_t)length[i];
        rows[i].separated = 0;
    }
    if (sort_rows(rows, n) < 0) goto done;
    const char *sep = PyBytes_AS_STRING(separator);
    Py_ssize_t sep_len = PyBytes_GET_SIZE(separator), written = 0;
    if (sep_len > SPOOL_BYTES) {
        PyErr_SetString(PyExc_ValueError, "separator too long");
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (i && spool_put(&spool, sep, sep_len) < 0) goto done;
        if (spool_copy(&spool, in_fd, rows[i].offset, rows[i].row_len) < 0) goto done;
        written += rows[i].row_len + (i ? sep_len : 0);
    }
    if (spool_flush(&spool) < 0) goto done;
    result = PyLong_FromSsize_t(written);
done:
    PyMem_Free(rows);
    PyMem_Free(spool.data);
    PyBuffer_Release(&starts);
    PyBuffer_Release(&lengths);
    Py_DECREF(separator);
    return result;
}

static PyMethodDef methods[] = {
    {"copy_in_key_order", (PyCFunction)(void (*)(void))copy_in_key_order, METH_FASTCALL,
     "Copy rows of in_fd to out_fd in the order of their keys, joined by separator."},
    {"write_in_key_order", (PyCFunction)(void (*)(void))write_in_key_order, METH_FASTCALL,
     "Write the blocks' rows to fd in the order of their keys, joined by separator."},
    {"read_plain_file", (PyCFunction)(void (*)(void))read_plain_file, METH_FASTCALL,
     "(data, size, mtime_ns, ctime_ns, inode) of a regular file read whole, or None."},
    {"write_new_files", (PyCFunction)(void (*)(void))write_new_files, METH_FASTCALL,
     "Create and write each (name, data, mtime_ns) in dir_fd, GIL released; errno per file."},
    {"stat_stamps", (PyCFunction)(void (*)(void))stat_stamps, METH_FASTCALL,
     "Packed (size, mtime_ns, ctime_ns, inode) per name, each modulo 2**64 (see the C source)."},
    {"has_terminal_controls", (PyCFunction)has_terminal_controls, METH_O,
     "True if UTF-8 JSON text holds a character a terminal would act on."},
    {"canonical_json", (PyCFunction)(void (*)(void))canonical_json, METH_FASTCALL,
     "json.dumps(value, sort_keys=sort_keys, separators=(',', ':'), ensure_ascii=ensure_ascii)"
     " as UTF-8 bytes (surrogatepass) for exact JSON types; None for anything else."},
    {"has_long_digit_run", (PyCFunction)(void (*)(void))has_long_digit_run, METH_FASTCALL,
     "True if data holds a run of at least `run` (19) ASCII digits."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_speedups", "Schema-free native helpers (optional).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__speedups(void) { return PyModule_Create(&module_def); }

/* write_in_key_order, copy_in_key_order: rows written in the order of their keys (see module.c). */
#include "speedups.h"

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
SPEEDUP PyObject *write_in_key_order(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
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
SPEEDUP PyObject *copy_in_key_order(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
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

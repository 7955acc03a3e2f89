/* stat_stamps, write_new_files, read_plain_file: files and their stamps (see module.c). */
#include "speedups.h"

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

/* The dir_fd argument (an int) as a descriptor; -1 with an error set if it is no int or
 * out of an int's range (OverflowError). */
static int dir_fd_of(PyObject *arg, int *dir_fd) {
    long fd = PyLong_AsLong(arg);
    if (fd == -1 && PyErr_Occurred()) return -1;
    if (fd < INT_MIN || fd > INT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "dir_fd out of range");
        return -1;
    }
    *dir_fd = (int)fd;
    return 0;
}

SPEEDUP PyObject *stat_stamps(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
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
    int dir_fd;
    if (dir_fd_of(args[0], &dir_fd) < 0) return NULL;
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
SPEEDUP PyObject *write_new_files(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyLong_Check(args[0]) || !PyList_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError,
                        "write_new_files(dir_fd: int, files: list[tuple[bytes, bytes, int]])");
        return NULL;
    }
    int dir_fd;
    if (dir_fd_of(args[0], &dir_fd) < 0) return NULL;
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
SPEEDUP PyObject *read_plain_file(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
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

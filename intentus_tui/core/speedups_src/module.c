/*
 * intentus_tui.core._speedups: schema-free native helpers (optional: each has a
 * pure-Python definition that runs where this is not built, and tests/core/test_native.py
 * and test_native_ordered_write.py prove the two equal). Nothing here knows a record
 * field, an event type or a summary's shape: only JSON text, bytes and stat(2). This file
 * lists them; json_text.c, files.c and ordered_rows.c hold them.
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
 *     Packed (size, mtime_ns, ctime_ns, inode) of each name: see files.c.
 *
 * write_new_files(dir_fd, files) -> list[int]
 *     Create and write each (name, data, mtime_ns) of files: see files.c.
 *
 * read_plain_file(path, limit) -> (data, size, mtime_ns, ctime_ns, inode) | None
 *     A plain regular file read whole in one go, with its stamp: see files.c.
 *
 * write_in_key_order(fd, blocks, separator) -> int
 *     Write rows held in blocks to fd in the order of their keys: see ordered_rows.c.
 *
 * copy_in_key_order(out_fd, in_fd, keys, starts, lengths, separator) -> int
 *     Copy rows from one file to another in the order of their keys: see ordered_rows.c.
 */
#include "speedups.h"

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

/* Shared by the sources of the optional native module intentus_tui.core._speedups (see
 * module.c for what each function does): the includes and the functions module.c lists. */
#ifndef INTENTUS_SPEEDUPS_H
#define INTENTUS_SPEEDUPS_H

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

/* Seen by the other sources of the module, not outside its shared object. */
#define SPEEDUP __attribute__((visibility("hidden")))

SPEEDUP PyObject *canonical_json(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
SPEEDUP PyObject *has_long_digit_run(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
SPEEDUP PyObject *has_terminal_controls(PyObject *module, PyObject *arg);
SPEEDUP PyObject *stat_stamps(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
SPEEDUP PyObject *write_new_files(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
SPEEDUP PyObject *read_plain_file(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
SPEEDUP PyObject *write_in_key_order(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
SPEEDUP PyObject *copy_in_key_order(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif

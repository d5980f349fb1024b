//! The boundary with C: every call's error or panic turned into a status
//! and the thread's last error, and every pointer, string, array and size
//! checked where it comes in.

use crate::{RB_ERR_ARGUMENT, RB_ERR_INPUT, RB_ERR_INTERNAL, RB_OK};
use std::cell::RefCell;
use std::ffi::{CStr, CString, c_char, c_int};
use std::panic::{AssertUnwindSafe, catch_unwind};

thread_local! {
    pub(crate) static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

pub(crate) fn set_error(message: &str) {
    let c = CString::new(message.replace('\0', "\\0")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

/// Runs `f`, turning its error or panic into a status and the thread's
/// last error.
pub(crate) fn guard(f: impl FnOnce() -> Result<(), (c_int, String)>) -> c_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => {
            set_error("");
            RB_OK
        }
        Ok(Err((status, message))) => {
            set_error(&message);
            status
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            set_error(&format!("internal error (a bug in rosenblatt): {what}"));
            RB_ERR_INTERNAL
        }
    }
}

pub(crate) fn arg(message: impl Into<String>) -> (c_int, String) {
    (RB_ERR_ARGUMENT, message.into())
}

pub(crate) fn input(e: impl std::fmt::Display) -> (c_int, String) {
    (RB_ERR_INPUT, e.to_string())
}

/// `p` as a reference, or an argument error naming it.
///
/// # Safety
/// `p` is NULL or points to a live `T`.
pub(crate) unsafe fn get<'a, T>(p: *const T, name: &str) -> Result<&'a T, (c_int, String)> {
    // SAFETY: the caller's promise: NULL or valid.
    unsafe { p.as_ref() }.ok_or_else(|| arg(format!("{name} is NULL")))
}

/// A C string as UTF-8.
///
/// # Safety
/// `p` is NULL or a NUL-terminated string.
pub(crate) unsafe fn text<'a>(p: *const c_char, name: &str) -> Result<&'a str, (c_int, String)> {
    if p.is_null() {
        return Err(arg(format!("{name} is NULL")));
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's promise.
    unsafe { CStr::from_ptr(p) }.to_str().map_err(|_| arg(format!("{name} is not UTF-8")))
}

/// `n` elements at `p` as a slice (empty for `n` = 0, whatever `p`).
///
/// # Safety
/// `p` points to `n` readable `T`s when `n` > 0.
pub(crate) unsafe fn slice<'a, T>(p: *const T, n: usize, name: &str) -> Result<&'a [T], (c_int, String)> {
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(arg(format!("{name} is NULL")));
    }
    if n.checked_mul(size_of::<T>()).is_none_or(|b| b > isize::MAX as usize) {
        return Err(arg(format!("{name}: {n} elements do not fit in memory")));
    }
    // SAFETY: non-NULL, `n` elements readable by the caller's promise, and
    // the size fits in isize (checked above).
    Ok(unsafe { std::slice::from_raw_parts(p, n) })
}

/// `n` elements at `p` as a mutable slice; NULL gives None.
///
/// # Safety
/// `p` is NULL or points to `n` writable `T`s not otherwise borrowed.
pub(crate) unsafe fn slice_mut<'a, T>(p: *mut T, n: usize) -> Result<Option<&'a mut [T]>, (c_int, String)> {
    if p.is_null() {
        return Ok(None);
    }
    if n.checked_mul(size_of::<T>()).is_none_or(|b| b > isize::MAX as usize) {
        return Err(arg(format!("{n} outputs do not fit in memory")));
    }
    if n == 0 {
        return Ok(Some(&mut []));
    }
    // SAFETY: non-NULL, `n` writable elements by the caller's promise,
    // size checked above.
    Ok(Some(unsafe { std::slice::from_raw_parts_mut(p, n) }))
}

pub(crate) fn size(v: u64, name: &str) -> Result<usize, (c_int, String)> {
    usize::try_from(v).map_err(|_| arg(format!("{name} = {v} does not fit in memory")))
}

/// Writes `value` through `out` after checking it.
///
/// # Safety
/// `out` is NULL or writable.
pub(crate) unsafe fn put<T>(out: *mut T, value: T, name: &str) -> Result<(), (c_int, String)> {
    if out.is_null() {
        return Err(arg(format!("{name} is NULL")));
    }
    // SAFETY: non-NULL and writable by the caller's promise.
    unsafe { out.write(value) };
    Ok(())
}

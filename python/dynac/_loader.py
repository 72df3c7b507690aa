"""Finding, checking and attaching built artifacts.

An artifact is the extension module `dynac build` writes for NAME.py:
NAME__dynac<EXT_SUFFIX>, in `__dynac__/` beside the source or in a directory
given with --path / $DYNAC_PATH. It records the SHA-256 of the source it was
built from; an artifact whose source has changed since is never attached.
"""
import importlib.machinery
import os
import sys
import time

from . import _runtime

EXT_SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
_loaded = {}          # artifact path -> module, or None when refused
_compiled_hashes = {}  # abspath -> sha256 of the source bytes the import system last compiled
#                       (or those bytes, until hashlib can hash them: source_sha256)


def module_stem(source_path):
    """The C-identifier stem the generator gives NAME.py: runtime/artifact.h's
    code, the generator's own (a non-ASCII name is one '_' per UTF-8 byte)."""
    return _runtime.module_stem(source_path)


def sha256_hex(data):
    """SHA-256 from the interpreter's own built-in module when it has one
    (CPython 3.11's _sha256, 3.12's _sha2): hashlib would load OpenSSL,
    ~6 ms of every `dynac run`. Imported on first use."""
    try:
        from _sha256 import sha256
    except ImportError:
        try:
            from _sha2 import sha256
        except ImportError:
            from hashlib import sha256
    return sha256(data).hexdigest()


def sha256_of_file(path):
    """The SHA-256 of the file's bytes now."""
    with open(path, "rb") as f:
        return sha256_hex(f.read())


def source_sha256(path):
    """The SHA-256 of the source the running code of `path` came from: the
    bytes the import system compiled, when it compiled them after dynac was
    imported (an import, importlib.reload), else the file's bytes now. A
    stat() key (mtime, size) would miss an edit that keeps both, as cp -p,
    rsync -t, unzip and git checkouts do."""
    key = os.path.abspath(path)
    digest = _compiled_hashes.get(key)
    if isinstance(digest, bytes):  # compiled while hashlib itself was being imported
        digest = _compiled_hashes[key] = sha256_hex(digest)
    if digest is None:
        digest = sha256_of_file(path)
    return digest


def _record_compiled_sources():
    """Wraps the import system's compile step (SourceLoader.source_to_code,
    which every .py import and reload goes through unless a .pyc serves it)
    to remember the hash of the bytes it compiled."""
    from importlib import _bootstrap_external as ext
    plain = ext.SourceLoader.source_to_code
    if getattr(plain, "_dynac_records", False):
        return

    def source_to_code(self, data, path, *args, **kwargs):
        if isinstance(path, str) and isinstance(data, (bytes, bytearray)):
            importing = sys.modules.get("hashlib")  # hashlib.py itself is being compiled (no
            ready = importing is None or hasattr(importing, "sha256")  # built-in sha256): its
            #                                                            bytes, hashed when asked
            _compiled_hashes[os.path.abspath(path)] = sha256_hex(data) if ready else bytes(data)
        return plain(self, data, path, *args, **kwargs)

    source_to_code._dynac_records = True
    ext.SourceLoader.source_to_code = source_to_code


_record_compiled_sources()


def candidate_paths(source_path, search_dirs=()):
    """Where an artifact of `source_path` may be: the search directories,
    __dynac__ beside the source, then the user cache compile on first call
    writes to when __dynac__ cannot be written (_jit.user_cache_dir; its
    folder's realpath is not computed while the cache has no folder at all:
    `dynac run` asks this for every module imported before it started)."""
    from ._jit import user_cache_dir, user_cache_root
    stem = module_stem(source_path)
    dirs = list(search_dirs) + [os.path.join(os.path.dirname(os.path.abspath(source_path)), "__dynac__")]
    if os.path.isdir(user_cache_root()):
        dirs.append(user_cache_dir(source_path))
    for d in dirs:
        yield os.path.join(d, stem + "__dynac" + EXT_SUFFIX)


def artifact_for(source_path, search_dirs=(), warn_stale=True):
    """The loaded artifact built from `source_path` as it is now, or None.
    A stale artifact (built from other source) is refused, with one warning
    when warn_stale (compile on first call rebuilds it instead)."""
    if not source_path or source_path.startswith("<") or not os.path.exists(source_path):
        return None
    for path in candidate_paths(source_path, search_dirs):
        if not os.path.exists(path):
            continue
        if path in _loaded:
            mod = _loaded[path]
        else:
            mod = _load(path)
            _loaded[path] = mod
        if mod is None:
            continue
        if os.path.basename(source_path) != mod.__dynac_source__:
            continue
        if getattr(mod, "__dynac_source_path__", None) is None:
            mod.__dynac_source_path__ = os.path.abspath(source_path)
        if mod.__dynac_source_sha256__ != source_sha256(source_path):
            key = (path, source_path)
            if warn_stale and key not in _warned_stale:
                _warned_stale.add(key)
                import warnings
                warnings.warn("dynac: %s was built from a different version of %s (the source "
                              "changed since the build); it runs in the interpreter until you "
                              "rebuild with 'python3 -m dynac build %s'" % (path, source_path, source_path),
                              RuntimeWarning, stacklevel=3)
            continue
        return mod
    return None


_warned_stale = set()


def adopt_artifact(path, fresh=False, canonical=None):
    """Loads the artifact at `path` and makes it the one artifact_for finds
    at `canonical` (default: path); None if it does not load. fresh: a
    rebuilt file, loaded even if this process loaded that path before (from
    a private copy: the dynamic loader would hand back the old library)."""
    canonical = canonical or path
    if not fresh and path in _loaded:
        return _loaded[path]
    copy = None
    if path in _dlopened:
        import shutil
        import tempfile
        fd, copy = tempfile.mkstemp(prefix=".load-", suffix=EXT_SUFFIX, dir=os.path.dirname(path))
        os.close(fd)
        shutil.copyfile(path, copy)
    try:
        mod = _load(copy or path, os.path.basename(path)[: -len(EXT_SUFFIX)])
    finally:
        if copy:
            os.unlink(copy)
    _loaded[canonical] = mod
    return mod


_dlopened = set()  # paths this process loaded a library from


def _load(path, name=None):
    name = name or os.path.basename(path)[: -len(EXT_SUFFIX)]
    _dlopened.add(path)
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.machinery.ModuleSpec(name, loader, origin=path)
    spec.has_location = True
    try:  # importlib.util.module_from_spec's steps (importlib.util costs ~1 ms to import)
        mod = loader.create_module(spec)
        mod.__spec__, mod.__loader__, mod.__file__ = spec, loader, path
        loader.exec_module(mod)
    except ImportError as e:
        import warnings
        warnings.warn("dynac: cannot load %s (%s); rebuild it" % (path, e), RuntimeWarning)
        return None
    if getattr(mod, "__dynac_abi__", None) is None:
        return None
    return mod


def attach_function(fn, artifact):
    """Attaches `artifact`'s kernels (and resume function) for fn; returns the
    number of kernel entries plus 1 if it got a resume function."""
    from ._explain import note_load
    t0 = time.perf_counter()
    modname = getattr(fn, "__module__", None) or module_stem(fn.__code__.co_filename)
    n = _runtime.attach_function(fn, artifact, modname)
    n += attach_resumes([fn.__code__], artifact, fn.__globals__, fn.__code__.co_filename)
    note_load(artifact.__file__, (time.perf_counter() - t0) * 1000.0)
    return n


def attach_code(code, artifact, modname, module_globals=None):
    """Attaches to every function code object nested in a module's code, and
    gives each graph-broken function its resume function."""
    n = _runtime.attach_code(code, artifact, modname)
    if module_globals is not None:
        attach_resumes(_nested_codes(code), artifact, module_globals, code.co_filename)
    return n


def _nested_codes(code):
    for c in code.co_consts:
        if isinstance(c, type(code)):
            yield c
            yield from _nested_codes(c)


def attach_resumes(codes, artifact, module_globals, filename):
    """Builds and installs the resume functions of the functions in `codes`
    that the artifact compiled around graph breaks. Returns how many."""
    if getattr(artifact, "__dynac_regions__", "{}") in ("", "{}"):
        return 0  # no function has graph breaks: _resume (ast, json) is not loaded
    from . import _resume
    table = _resume.regions_of(artifact)
    if not table:
        return 0
    small = os.environ.get("DYNAC_SMALL_REGIONS") == "1"  # small regions as kernels too (_resume.kept)
    n = 0
    source = None
    for code in codes:
        regions = table.get("%s:%d" % (code.co_qualname, code.co_firstlineno))
        if not regions:
            continue
        if source is None:
            with open(filename, "rb") as f:
                source = f.read()
        fn = _resume.build(source, filename, code.co_qualname, code.co_firstlineno, regions,
                           artifact, module_globals, code, small)
        if fn is not None:
            _runtime.set_resume(code, fn)
            n += 1
    return n

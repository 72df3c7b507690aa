"""Build integration for packages (the idea is Cython's `cythonize`): the
artifacts of a package's modules are built with the package, by setuptools.

    # setup.py of a package whose modules use @dynac.compile
    from setuptools import setup
    from dynac.build import dynac_extensions
    setup(ext_modules=dynac_extensions(["mypkg/model.py", "mypkg/ops.py"]))

Each module's kernels are generated as C (`dynac build --emit-only`) into
`mypkg/__dynac__/NAME__dynac.c` and returned as a setuptools Extension
named `mypkg.__dynac__.NAME__dynac`, so build_ext compiles it with the
package's compiler settings and the wheel carries it beside the module,
where `import dynac` finds it: the installed package runs its kernels
without compiling anything on first call. The artifact records the
SHA-256 of the source it was built from, so an edited installed module
runs interpreted (or is compiled on first call) rather than stale.
"""
import os
import subprocess
import sys

__all__ = ["dynac_extensions", "BuildError"]


class BuildError(RuntimeError):
    """The generator refused a module (its file:line:col errors are in the message)."""


def dynac_extensions(sources, profile=None, all_functions=False, package_dir=None):
    """setuptools Extensions for the dynac artifacts of `sources` (paths of
    .py files, relative to the setup.py folder or absolute).

    profile: a `dynac record` profile (argument types of undecorated
    functions); all_functions: every function is a compile root (`--all`).
    package_dir: the folder the package's import names start from (default:
    the setup.py folder; "src" for a src layout). Raises BuildError when the
    generator reports errors; returns one Extension per module.
    """
    from setuptools import Extension
    from . import _config
    from ._cli import generator_env
    from ._loader import module_stem
    base = os.path.abspath(package_dir or ".")
    exts = []
    for src in sources:
        path = os.path.abspath(src)
        outdir = os.path.join(os.path.dirname(path), "__dynac__")
        cmd = [_config.GENERATOR, "build", path, "--emit-only", "-o", outdir]
        if profile:
            cmd += ["--profile", os.path.abspath(profile)]
        if all_functions:
            cmd.append("--all")
        r = subprocess.run(cmd, env=generator_env(), capture_output=True, text=True)
        if r.returncode:
            raise BuildError("dynac: generating the kernels of %s failed:\n%s" % (src, r.stderr))
        stem = module_stem(path)
        c_file = os.path.join(outdir, stem + "__dynac.c")
        rel = os.path.relpath(os.path.dirname(path), base)
        if rel.startswith(".."):
            raise BuildError("dynac: %s is outside the package folder %s" % (src, base))
        parts = [] if rel == "." else rel.split(os.sep)
        name = ".".join(parts + ["__dynac__", stem + "__dynac"])
        exts.append(Extension(name, [os.path.relpath(c_file)],
                              include_dirs=[_config.INCLUDE],
                              extra_compile_args=["-std=gnu11", "-fno-strict-aliasing"]))
        print("dynac: %s -> %s" % (src, name), file=sys.stderr)
    return exts

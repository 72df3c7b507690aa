"""Makes `import dynac` work for this interpreter without installing: writes
dynac.pth, naming the build directory, into its site-packages (or the user
site as a fallback), and says so when it writes or changes it. To install
instead: `pip install .` (offline: --no-build-isolation), or `make install`."""
import os
import site
import sys

target = sys.argv[1]
candidates = list(site.getsitepackages()) + [site.getusersitepackages()]
for d in candidates:
    path = os.path.join(d, "dynac.pth")
    try:
        with open(path) as f:
            if f.read() == target + "\n":
                break  # already there: nothing to say
    except OSError:
        pass
    try:
        os.makedirs(d, exist_ok=True)
        with open(path, "w") as f:
            f.write(target + "\n")
    except OSError:
        continue
    print("dynac: `import dynac` now works in %s: %s points at %s (delete that file to undo; "
          "`pip install .` installs dynac instead)" % (sys.executable, path, target))
    break
else:
    sys.exit("dynac: no writable site-packages for %s; set PYTHONPATH=%s" % (sys.executable, target))

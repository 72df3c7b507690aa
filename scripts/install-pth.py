"""Makes `import dynac` work for this interpreter: writes dynac.pth, naming
the build directory, into its site-packages (or the user site as a fallback)."""
import os
import site
import sys

target = sys.argv[1]
candidates = list(site.getsitepackages()) + [site.getusersitepackages()]
for d in candidates:
    try:
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, "dynac.pth")
        with open(path, "w") as f:
            f.write(target + "\n")
        break
    except OSError:
        continue
else:
    sys.exit("dynac: no writable site-packages for %s; set PYTHONPATH=%s" % (sys.executable, target))

"""Prints what the Makefile needs to know about this interpreter:
include dir, extension suffix, and a short tag naming the interpreter."""
import hashlib
import sys
import sysconfig

if sys.version_info[:2] != (3, 11):
    sys.exit("dynac needs CPython 3.11; this is %s (%s)" % (sys.version.split()[0], sys.executable))
tag = hashlib.sha1(sys.executable.encode()).hexdigest()[:8]
print(sysconfig.get_paths()["include"], sysconfig.get_config_var("EXT_SUFFIX"), tag)

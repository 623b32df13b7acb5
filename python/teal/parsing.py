"""Parser and PackageMap (pydrake.multibody.parsing): URDF, SDFormat and MJCF
through Teal's one entry point (multibody/parsing/parser.h)."""
import os

from teal import _core
from teal._core import _Handle, check, cstr, ffi, lib

# More model instances than one document holds in practice; a larger count
# is still reported (the list then holds the first ones).
_MAX_INSTANCES = 1024
_MAX_PATH = 4096


class PackageMap:
    """Where package:// and model:// URIs point (Drake's PackageMap)."""

    def __init__(self):
        err = _core.new_error()
        ptr = lib.teal_package_map_new(err)
        if ptr == ffi.NULL:
            raise _core.error_from(err, -1, "PackageMap failed")
        self._h = _Handle(ptr, lib.teal_package_map_free)

    def _ptr(self):
        return self._h.get()

    def Add(self, package_name, package_path):
        """Maps package_name to the directory package_path (which must exist)."""
        err = _core.new_error()
        check(lib.teal_package_map_add(self._ptr(), cstr(package_name),
                                       cstr(os.fspath(package_path)), err), err)

    def AddPackageXml(self, filename):
        """Adds the package whose manifest (package.xml) is filename, under
        the <name> it declares, at the manifest's directory."""
        filename = os.fspath(filename)
        if os.path.basename(filename) != "package.xml" or not os.path.isfile(filename):
            raise _core.TealNotFoundError(
                -5, f"PackageMap.AddPackageXml: '{filename}' is not a package.xml file")
        added = self._crawl(os.path.dirname(os.path.abspath(filename)))
        if added == 0:
            raise _core.TealInvalidArgumentError(
                -1, f"PackageMap.AddPackageXml: '{filename}': no package added (an unreadable "
                "manifest, or its name is already mapped)")

    def PopulateFromFolder(self, path):
        """Adds every package whose package.xml lies under path."""
        self._crawl(os.fspath(path))

    def _crawl(self, root):
        err, added = _core.new_error(), ffi.new("int *")
        check(lib.teal_package_map_crawl(self._ptr(), cstr(root), added, err), err)
        return added[0]

    def PopulateFromEnvironment(self, environment_variable):
        """Crawls the colon-separated roots listed in environment_variable."""
        err = _core.new_error()
        check(lib.teal_package_map_populate_from_environment(
            self._ptr(), cstr(environment_variable), err), err)

    def Contains(self, package_name):
        """True when package_name is mapped."""
        return lib.teal_package_map_get(self._ptr(), cstr(package_name)) != ffi.NULL

    def GetPath(self, package_name):
        """The directory of package_name (LookupError when unknown)."""
        path = lib.teal_package_map_get(self._ptr(), cstr(package_name))
        if path == ffi.NULL:
            raise _core.TealNotFoundError(
                -5, f"PackageMap.GetPath: no package named '{package_name}'")
        return ffi.string(path).decode()

    def size(self):
        """Number of packages."""
        return lib.teal_package_map_size(self._ptr())


class Parser:
    """Loads URDF, SDFormat and MJCF models into a plant (Drake's Parser).

    The format comes from the file name (.urdf, .sdf/.world, .mjcf) or, for
    other names such as MuJoCo's .xml, from the document's root element.
    Without a call to package_map(), package URIs resolve against the roots
    in TEAL_PACKAGE_PATH; once the map is used, against the map alone."""

    def __init__(self, plant):
        self._plant = plant
        self._packages = None

    def package_map(self):
        """The parser's PackageMap (made on first use)."""
        if self._packages is None:
            self._packages = PackageMap()
        return self._packages

    def _options(self):
        opts = ffi.new("teal_parser_options *")
        lib.teal_parser_options_init(opts)
        if self._packages is not None:
            opts.packages = self._packages._ptr()
        return opts

    def _load(self, fn, source, fmt, what):
        err, count = _core.new_error(), ffi.new("int *")
        instances = ffi.new("int[]", _MAX_INSTANCES)
        args = (fmt,) if fmt is not None else ()
        rc = fn(self._plant._plant(), cstr(source), *args, self._options(), instances,
                _MAX_INSTANCES, count, ffi.NULL, err)
        if rc < 0:
            raise _core.error_from(err, rc, what)
        return [instances[i] for i in range(min(count[0], _MAX_INSTANCES))]

    def AddModels(self, file_name):
        """Loads the models of a file (absolute, relative, or found on
        TEAL_MODEL_PATH); returns the list of model instances added."""
        return self._load(lib.teal_parser_add_models, os.fspath(file_name), None,
                          "AddModels failed")

    def AddModelsFromUrl(self, url):
        """Loads the models of the file a package://name/... or
        model://name/... URL names (resolved with the parser's package map,
        or, without one, with the roots in TEAL_PACKAGE_PATH, then the
        model search path)."""
        packages = self._packages
        if packages is None:
            packages = PackageMap()
            packages.PopulateFromEnvironment("TEAL_PACKAGE_PATH")
        err, path = _core.new_error(), ffi.new("char[]", _MAX_PATH)
        check(lib.teal_package_map_resolve(packages._ptr(), cstr(url), ffi.NULL, path, _MAX_PATH,
                                           err), err)
        return self.AddModels(ffi.string(path).decode())

    def AddModelsFromString(self, file_contents, file_type):
        """Loads the models of a document in memory; file_type is "urdf",
        "sdf" or "mjcf" (Drake's file extensions "xml" also means MJCF)."""
        fmt = {"xml": "mjcf"}.get(file_type, file_type)
        return self._load(lib.teal_parser_add_models_string, file_contents, cstr(fmt),
                          "AddModelsFromString failed")

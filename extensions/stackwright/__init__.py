"""The facts and helpers behind the Stackwright template, one module per concern.

Copier loads ../jinja_extension.py, which only registers what these modules provide as
Jinja globals and filters. Scripts, hooks and tests import from the module that owns
what they need (with ../ on sys.path: `from stackwright.bundles import BUNDLES`).

| module | owns |
|---|---|
| paths | where the template's files are, and the fragments of a layer folder |
| questions | the schema's allowed values and rules: choices, defaults, refusals |
| bundles | bundles, models, and the tables an update would drop |
| stacks | what differs between runtimes and frameworks |
| layouts | where each file lives per architecture, and the import paths between files |
| file_plan | which fragment of template/layers makes which file |
| packages | the version table and the package managers' commands |
| apis | the domain APIs: their manifests (`apis/<api>/api.yml`), the `apis` question and where each is built |
| names | project names, folder names and display text |
| releases | release versions and the `copier update` command |
| formatting | source laid out as Biome and `prisma format` would |
| jinja_caches | Jinja's compile caches |
"""

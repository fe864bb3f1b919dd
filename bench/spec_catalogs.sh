# Sourced by the bench scripts: writes the catalog files of the
# specification's catalogs, for parserate -catalog, into "$tmp" (v09.yaml:
# the v0.9 basic catalog; v08.yaml: the v0.8 standard catalog), from
# "$shared" (an absolute path).
v09="$shared/a2ui/specification/v0_9"
v08="$shared/a2ui/specification/v0_8/json"
printf '%s\n' 'version: "0.9"' "s2c_schema: $v09/json/server_to_client.json" \
  "catalog_schema: $v09/catalogs/basic/catalog.json" \
  "common_types_schema: $v09/json/common_types.json" > "$tmp/v09.yaml"
printf '%s\n' 'version: "0.8"' "s2c_schema: $v08/server_to_client.json" \
  "catalog_schema: $v08/standard_catalog_definition.json" > "$tmp/v08.yaml"

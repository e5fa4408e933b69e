-- sfdb: additive — an older release reads and writes nodes as before; an fqdn it would store in another form (a trailing dot, upper case) is refused by the CHECK below (its caller sees an error) instead of becoming a second node.
-- Node fqdns in one normal form: lower case, no trailing dot (server/validate.ts fqdn, the
-- form every write and look-up uses since this release; docs/contract.md, "Node fqdns").
-- Rows stored before it in another form are rewritten to it (version bumped, as by an
-- update). When two rows are one fqdn in that form (`a.example` and `a.example.`), the
-- migration refuses, naming them, and changes nothing: an operator deletes or renames all
-- but one of each (with the release before this one) and starts this one again.
-- The statements below end a line with `;` only where one ends (migrate.ts splits there).
BEGIN NOT ATOMIC
  SET @sfdb_fqdn_clashes = (
    SELECT GROUP_CONCAT(clash ORDER BY clash SEPARATOR '; ') FROM (
      SELECT CONCAT(LOWER(TRIM(TRAILING '.' FROM fqdn)), ' is ', GROUP_CONCAT(CONCAT(uuid, ' "', fqdn, '"') ORDER BY uuid SEPARATOR ' and ')) AS clash
        FROM nodes GROUP BY LOWER(TRIM(TRAILING '.' FROM fqdn)) HAVING COUNT(*) > 1
    ) AS clashes
  ); IF @sfdb_fqdn_clashes IS NOT NULL THEN
    SET @sfdb_fqdn_clashes = LEFT(CONCAT('node fqdns that are one in normal form (lower case, no trailing dot): ', @sfdb_fqdn_clashes,
      ' - delete or rename all but one of each with the release before this one, then start this one again'), 500); SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = @sfdb_fqdn_clashes; END IF; END;

UPDATE nodes SET fqdn = LOWER(TRIM(TRAILING '.' FROM fqdn)), version = version + 1, updated_at = UTC_TIMESTAMP(6)
 WHERE fqdn <> LOWER(TRIM(TRAILING '.' FROM fqdn));

ALTER TABLE nodes ADD CONSTRAINT nodes_fqdn_normal CHECK (fqdn = LOWER(fqdn) AND fqdn NOT LIKE '%.');

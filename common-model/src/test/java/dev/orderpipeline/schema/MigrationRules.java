package dev.orderpipeline.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The rules a new migration follows so that it never stops the shop on a big table (docs/database.md, "Migration
 * rules"). PostgreSQL takes ACCESS EXCLUSIVE, which queues every reader, for ALTER TABLE ... ADD CONSTRAINT and holds
 * it through the scan that validates it, and a plain CREATE INDEX blocks every writer for the whole build; the
 * migration sessions' lock_timeout bounds the wait for a lock, not what happens once it is held.
 */
final class MigrationRules {

    /** The migrations that ran before these rules: they cannot change (Flyway checks their checksums). */
    static final int LAST_GRANDFATHERED_VERSION = 22;

    /** What each of them is called: a file added later with a version this low would escape the rules. */
    static final List<String> GRANDFATHERED = List.of(
            "V1__checkout_schema.sql",
            "V2__strict_checkout_schema.sql",
            "V3__cart_lines.sql",
            "V10__order_idempotency_keys.sql",
            "V20__processed_command_processed_at_index.sql",
            "V21__abandoned_orders_index.sql",
            "V22__retention_functions.sql");

    private record Rule(String why, Predicate<String> breaks) {}

    private static final List<Rule> STATEMENT_RULES = List.of(
            new Rule(
                    "a CHECK or FOREIGN KEY constraint is added NOT VALID and validated by a later migration (ALTER"
                            + " TABLE ... VALIDATE CONSTRAINT takes a lock that lets reads and writes go on)",
                    statement -> matches("ALTER TABLE .*ADD (CONSTRAINT \\S+ )?(CHECK|FOREIGN KEY)\\b.*", statement)
                            && !statement.contains("NOT VALID")),
            new Rule(
                    "a UNIQUE or PRIMARY KEY constraint is added USING INDEX, an index built CONCURRENTLY before",
                    statement -> matches("ALTER TABLE .*ADD (CONSTRAINT \\S+ )?(UNIQUE|PRIMARY KEY)\\b.*", statement)
                            && !statement.contains("USING INDEX")),
            new Rule(
                    "an index is built CONCURRENTLY",
                    statement -> matches("CREATE (UNIQUE )?INDEX (?!CONCURRENTLY).*", statement)),
            new Rule(
                    "an index is dropped CONCURRENTLY",
                    statement -> matches("DROP INDEX (?!CONCURRENTLY).*", statement)),
            new Rule(
                    "no SET NOT NULL (a full scan under ACCESS EXCLUSIVE): a CHECK (column IS NOT NULL) NOT VALID,"
                            + " validated later, says the same",
                    statement -> matches("ALTER TABLE .*SET NOT NULL.*", statement)),
            new Rule(
                    "no column type change (ALTER COLUMN ... TYPE rewrites the table under ACCESS EXCLUSIVE)",
                    statement -> matches("ALTER TABLE .*ALTER (COLUMN )?\\S+ (SET DATA )?TYPE .*", statement)),
            new Rule(
                    "no VACUUM FULL, CLUSTER or plain REINDEX (each holds ACCESS EXCLUSIVE for the whole rewrite)",
                    statement -> matches("(VACUUM FULL|CLUSTER|REINDEX (?!.*CONCURRENTLY)).*", statement)),
            new Rule(
                    "no SET of a session timeout: the migration sessions have theirs (Migrations.SESSION_SETTINGS)",
                    statement -> matches(
                            "(SET|RESET) (LOCAL )?(LOCK_TIMEOUT|STATEMENT_TIMEOUT|IDLE_IN_TRANSACTION_SESSION_TIMEOUT)"
                                    + "\\b.*",
                            statement)));

    private static final Pattern CONCURRENT_INDEX =
            Pattern.compile("(CREATE (UNIQUE )?INDEX|DROP INDEX) CONCURRENTLY .*");

    private static final Pattern CREATED_INDEX =
            Pattern.compile("CREATE (UNIQUE )?INDEX CONCURRENTLY (IF NOT EXISTS )?(?<name>\\S+) ON .*");

    private static final Pattern CREATED_TABLE = Pattern.compile("CREATE TABLE (IF NOT EXISTS )?(?<name>\\S+) .*");

    /** The table an ALTER TABLE or CREATE INDEX works on. */
    private static final Pattern TARGET =
            Pattern.compile("(ALTER TABLE (IF EXISTS )?|CREATE (UNIQUE )?INDEX .*? ON )(ONLY )?(?<name>[^\\s(]+).*");

    private static final Pattern VALIDATED = Pattern.compile("ALTER TABLE .*VALIDATE CONSTRAINT (?<name>\\S+)");

    private MigrationRules() {}

    /** What {@code script} does against the rules, one sentence each; empty when it follows them all. */
    static List<String> violations(MigrationScript script) {
        var violations = new ArrayList<String>();
        var newTables = new ArrayList<String>();
        for (var statement : script.statements()) {
            var createdTable = CREATED_TABLE.matcher(statement);
            if (createdTable.matches()) {
                newTables.add(createdTable.group("name"));
            }
            var target = TARGET.matcher(statement);
            if (target.matches() && newTables.contains(target.group("name"))) {
                // a table this script creates is empty and nobody else sees it before the script commits
                continue;
            }
            for (var rule : STATEMENT_RULES) {
                if (rule.breaks().test(statement)) {
                    violations.add(rule.why() + ": " + statement);
                }
            }
        }
        var concurrent = script.statements().stream()
                .filter(statement -> CONCURRENT_INDEX.matcher(statement).matches())
                .toList();
        if (!concurrent.isEmpty() && script.transactional()) {
            violations.add("CONCURRENTLY cannot run in a transaction: the script needs a " + script.name()
                    + ".conf with executeInTransaction=false");
        }
        if (!concurrent.isEmpty() && concurrent.size() < script.statements().size()) {
            // a script outside a transaction that fails half way is retried from its start: only statements that a
            // retry redoes without harm
            violations.add("a script outside a transaction holds concurrent index statements only");
        }
        for (var statement : concurrent) {
            var created = CREATED_INDEX.matcher(statement);
            if (created.matches()) {
                var drop = "DROP INDEX CONCURRENTLY IF EXISTS " + created.group("name");
                var at = script.statements().indexOf(statement);
                if (!script.statements().subList(0, at).contains(drop)) {
                    violations.add("a concurrent build that failed leaves an INVALID index, which IF NOT EXISTS would"
                            + " keep: " + drop + " comes first");
                }
            }
        }
        for (var statement : script.statements()) {
            var validated = VALIDATED.matcher(statement);
            if (validated.matches()
                    && script.statements().stream()
                            .anyMatch(other -> other.matches("ALTER TABLE .*ADD CONSTRAINT "
                                    + Pattern.quote(validated.group("name")) + " .*"))) {
                violations.add("a constraint is validated in a later migration than the one that adds it, or the"
                        + " ADD's ACCESS EXCLUSIVE lasts through the validation: " + statement);
            }
        }
        return violations;
    }

    private static boolean matches(String regex, String statement) {
        return statement.matches(regex);
    }
}

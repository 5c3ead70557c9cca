// The version of the rules engine, returned as `rules_version`. The specification fixes the engine at
// version 1; the minor part counts changes of the rules or their data (taxonomy, vocabularies, rubric)
// that change answers for the same listing. Bump it with every such change.
export const RULES_VERSION = '1.1';

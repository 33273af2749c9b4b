import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type Lookup = Storage['getTargetValidationMetadatas'];
type Grouping = Storage['groupByPropertyName'];
type Rules = ReturnType<Lookup>;

let installed = false;

/**
 * class-validator looks a class's rules up anew for every object it validates: it filters the
 * rules of every class known to it, then groups the survivors by property
 * (MetadataStorage.getTargetValidationMetadatas and groupByPropertyName), which was about half
 * of what validating a body cost and most of what it allocated. A class's rules only change
 * when a decorator adds one, so both answers are kept per class and options until then. The
 * answers are the very arrays class-validator computes, and it only reads them.
 *
 * These are methods of class-validator's own storage, which another version may arrange
 * differently: the package's peer range holds the versions it was checked with, and
 * `npm run check:contracts` checks the newest the range allows (a class given a rule later
 * included).
 *
 * Installs itself once; later calls do nothing.
 */
export function cacheRuleLookups(): void {
  if (installed) return;
  installed = true;
  const storage = getMetadataStorage();
  const lookUp: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group: Grouping = storage.groupByPropertyName.bind(storage);
  let rulesOf = new WeakMap<object, Map<string, Rules>>();
  let groupsOf = new WeakMap<Rules, ReturnType<Grouping>>();

  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0000') ?? ''}`;
    let byOptions = rulesOf.get(target);
    if (byOptions === undefined) rulesOf.set(target, (byOptions = new Map<string, Rules>()));
    let rules = byOptions.get(key);
    if (rules === undefined) {
      rules = lookUp(target, schema, always, strictGroups, groups);
      byOptions.set(key, rules);
    }
    return rules;
  };
  storage.groupByPropertyName = (rules) => {
    let grouped = groupsOf.get(rules);
    if (grouped === undefined) {
      grouped = group(rules);
      groupsOf.set(rules, grouped);
    }
    return grouped;
  };
  // A class defined later (or a rule added at run time) starts the lookups afresh.
  const forget = () => {
    rulesOf = new WeakMap();
    groupsOf = new WeakMap();
  };
  const addRule = storage.addValidationMetadata.bind(storage);
  storage.addValidationMetadata = (metadata) => {
    addRule(metadata);
    forget();
  };
}

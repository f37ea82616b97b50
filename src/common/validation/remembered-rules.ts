import { getMetadataStorage, MetadataStorage } from 'class-validator';

type Rules = ReturnType<MetadataStorage['getTargetValidationMetadatas']>;

let remembering = false;

/**
 * Makes class-validator find a class's rules once instead of at every validation.
 *
 * `validateSync` asks its metadata storage for the rules of the object's class each time, and the
 * storage answers by testing the class against every class that has rules (`instanceof`, for the
 * inherited ones) and filtering what it finds: measured with the application's classes loaded, about
 * 3 of the 4.7-5.7 µs a one-field DTO's validation takes, on every request of every route that has a
 * DTO. A class's rules are fixed once the class is defined (its decorators ran), so they are remembered
 * per class and options, and forgotten whenever a rule is added (a class defined later). Groups,
 * which Khoums does not use, are not remembered.
 *
 * The storage is class-validator's one per process: called once, at the validation pipe's loading.
 */
export function rememberValidationRules(): void {
  if (remembering) return;
  remembering = true;
  const storage = getMetadataStorage();
  const find = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const addRule = storage.addValidationMetadata.bind(storage);
  let found = new Map<string | Function, Map<string, Rules>>();
  let grouped = new WeakMap<Rules, Record<string, Rules>>();
  storage.addValidationMetadata = (metadata) => {
    found = new Map();
    grouped = new WeakMap();
    addRule(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (groups?.length) return find(target, schema, always, strictGroups, groups);
    let byOptions = found.get(target);
    if (!byOptions) found.set(target, (byOptions = new Map()));
    const options = `${schema}\u0000${always}\u0000${strictGroups}`;
    let rules = byOptions.get(options);
    if (!rules) byOptions.set(options, (rules = find(target, schema, always, strictGroups, groups)));
    return rules;
  };
  // The executor groups the rules it was given by property at every validation too.
  storage.groupByPropertyName = (rules) => {
    let byProperty = grouped.get(rules);
    if (!byProperty) grouped.set(rules, (byProperty = group(rules)));
    return byProperty;
  };
}

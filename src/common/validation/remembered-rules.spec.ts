import { getMetadataStorage, IsInt, IsString, validateSync } from 'class-validator';
import { rememberValidationRules } from './remembered-rules';

rememberValidationRules();
const storage = getMetadataStorage();
const rulesOf = (target: Function, groups?: string[]) =>
  storage.getTargetValidationMetadatas(target, undefined as unknown as string, false, false, groups);
const failed = (value: object) => validateSync(value, { forbidUnknownValues: false }).map((e) => e.property);

class Parent {
  @IsString() name!: unknown;
}

describe('rememberValidationRules', () => {
  it("finds a class's rules once: the same rules, grouped once, at every validation", () => {
    const first = rulesOf(Parent);
    expect(rulesOf(Parent)).toBe(first);
    expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(first));
    expect(first.map((r) => r.propertyName)).toEqual(['name']);
  });

  it('validates as before, the second time too', () => {
    for (let i = 0; i < 2; i++) {
      expect(failed(Object.assign(new Parent(), { name: 1 }))).toEqual(['name']);
      expect(failed(Object.assign(new Parent(), { name: 'a' }))).toEqual([]);
    }
  });

  it('forgets what it found when a class defined later adds rules (its own and those it inherits)', () => {
    const before = rulesOf(Parent);
    class Child extends Parent {
      @IsInt() age!: unknown;
    }
    expect(rulesOf(Parent)).not.toBe(before);
    expect(rulesOf(Parent).map((r) => r.propertyName)).toEqual(['name']);
    expect(
      rulesOf(Child)
        .map((r) => r.propertyName)
        .sort(),
    ).toEqual(['age', 'name']);
    expect(failed(Object.assign(new Child(), { name: 1, age: 'x' })).sort()).toEqual(['age', 'name']);
    expect(failed(Object.assign(new Parent(), { name: 'a', age: 'x' }))).toEqual([]);
  });

  it('does not remember a look-up with groups', () => {
    expect(rulesOf(Parent, ['a'])).not.toBe(rulesOf(Parent, ['a']));
  });

  it('wraps the storage once, however often it is called', () => {
    const wrapped = storage.getTargetValidationMetadatas;
    rememberValidationRules();
    expect(storage.getTargetValidationMetadatas).toBe(wrapped);
  });
});

/**
 * receiptcheck's zod entry, `receiptcheck/zod`: operation fields derived from a zod 4 schema.
 * Apart from the main barrel (`src/index.ts`) because it loads zod, an optional peer dependency:
 * the main entry, its types included, must work for users who do not have zod installed.
 */

export type { FieldsFromZodOptions, ZodArguments } from './generate/zod/fields-from-zod.ts';
export { fieldsFromZod } from './generate/zod/fields-from-zod.ts';

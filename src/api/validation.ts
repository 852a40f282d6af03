/**
 * Request validation. Fastify's defaults coerce types and strip unknown fields; a control plane must
 * do neither, so bodies get an Ajv that refuses both (wrong type or unknown field → 422). Query
 * strings are text by nature, so only there are scalars coerced ("limit=5" → 5), and an integer
 * must be written in decimal digits ("0x10" and "1e3" are refused).
 */
import { Ajv } from 'ajv';
import type { AnySchema, ValidateFunction } from 'ajv';
import * as addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { SchemaErrorFormatter } from 'fastify/types/schema.js';

// ajv-formats ships CommonJS with a default export; under NodeNext it arrives as the module object.
const addFormats = addFormatsModule.default as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean): Ajv {
  // verbose: an error carries the schema it broke, so formatSchemaErrors can add that field's `x-hint`.
  const ajv = new Ajv({
    coerceTypes,
    removeAdditional: false,
    useDefaults: true,
    allErrors: false,
    strict: false,
    verbose: true,
  });
  addFormats(ajv);
  return ajv;
}

export function strictValidatorCompiler(): FastifySchemaCompiler<AnySchema> {
  const strict = makeAjv(false);
  const coercing = makeAjv(true);
  return ({ schema, httpPart }) => {
    if (httpPart === 'querystring' || httpPart === 'params') {
      return decimalIntegersOnly(schema, coercing.compile(schema)) as ReturnType<FastifySchemaCompiler<AnySchema>>;
    }
    const validate: ValidateFunction = strict.compile(schema);
    return validate as ReturnType<FastifySchemaCompiler<AnySchema>>;
  };
}

/** Optional sign and decimal digits: what an operator types for an integer. */
const DECIMAL_INTEGER = /^-?[0-9]+$/;

/**
 * Ajv coerces query text with JavaScript's Number(), which also reads "0x10" (16), "1e3" (1000),
 * "1e309" (Infinity) and " 5" (5). Before coercion, every integer property of the schema must be
 * decimal digits naming a safe integer; anything else is a validation error on that property.
 */
function decimalIntegersOnly(schema: AnySchema, validate: ValidateFunction): ValidateFunction {
  const names = integerProperties(schema);
  if (names.length === 0) return validate;
  const checked = ((data: unknown) => {
    for (const name of names) {
      const raw = (data as Record<string, unknown> | null | undefined)?.[name];
      if (typeof raw !== 'string' || (DECIMAL_INTEGER.test(raw) && Number.isSafeInteger(Number(raw)))) continue;
      checked.errors = [
        {
          instancePath: `/${name}`,
          schemaPath: `#/properties/${name}/type`,
          keyword: 'type',
          params: { type: 'integer' },
          message: 'must be a decimal integer',
        },
      ];
      return false;
    }
    const valid = validate(data);
    checked.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  return checked;
}

function integerProperties(schema: AnySchema): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.entries(properties)
    .filter(([, property]) => property.type === 'integer')
    .map(([name]) => name);
}

/**
 * What a field's schema may say to someone who got its unit wrong, appended to any error on it: a
 * bound alone ("must be <= 1") does not tell an operator who typed 50 for half that a fraction is meant.
 */
const HINT = 'x-hint';

function hintOf(e: object): string | null {
  // Present because the Ajv instances are verbose (makeAjv).
  const hint = (e as { parentSchema?: Record<string, unknown> }).parentSchema?.[HINT];
  return typeof hint === 'string' ? hint : null;
}

/**
 * Turns Ajv errors into one readable message ("body/symbol must be one of: BTCUSDT, ETHUSDT"),
 * naming the field and, for enums, the allowed values; a field's `x-hint` follows its error.
 */
export const formatSchemaErrors: SchemaErrorFormatter = (errors, dataVar) => {
  const text = errors
    .map((e) => {
      const where = `${dataVar}${e.instancePath}`;
      const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues;
      if (e.keyword === 'enum' && Array.isArray(allowed)) return `${where} must be one of: ${allowed.join(', ')}`;
      if (e.keyword === 'additionalProperties') {
        return `${where} has unknown field "${String((e.params as { additionalProperty?: string }).additionalProperty)}"`;
      }
      const hint = hintOf(e);
      return `${where} ${e.message ?? 'is invalid'}${hint ? `: ${hint}` : ''}`;
    })
    .join('; ');
  return new Error(text);
};

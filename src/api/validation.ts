/**
 * Request validation. Fastify's defaults coerce types and strip unknown fields; a control plane must
 * do neither, so bodies get an Ajv that refuses both (wrong type or unknown field → 422). Query
 * strings are text by nature, so only there are scalars coerced ("limit=5" → 5).
 */
import { Ajv } from 'ajv';
import type { AnySchema, ValidateFunction } from 'ajv';
import * as addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { SchemaErrorFormatter } from 'fastify/types/schema.js';

// ajv-formats ships CommonJS with a default export; under NodeNext it arrives as the module object.
const addFormats = addFormatsModule.default as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ coerceTypes, removeAdditional: false, useDefaults: true, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}

export function strictValidatorCompiler(): FastifySchemaCompiler<AnySchema> {
  const strict = makeAjv(false);
  const coercing = makeAjv(true);
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'querystring' || httpPart === 'params' ? coercing : strict;
    const validate: ValidateFunction = ajv.compile(schema);
    return validate as ReturnType<FastifySchemaCompiler<AnySchema>>;
  };
}

/**
 * Turns Ajv errors into one readable message ("body/symbol must be one of: BTCUSDT, ETHUSDT"),
 * naming the field and, for enums, the allowed values.
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
      return `${where} ${e.message ?? 'is invalid'}`;
    })
    .join('; ');
  return new Error(text);
};

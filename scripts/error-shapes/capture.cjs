// Runs real validation libraries on one bad input and prints each library's own error JSON, so the
// extraction tests read what these libraries really emit. Run by scripts/capture-error-shapes.
// Input: name missing, email "not-an-email", age -1 (and, where the library nests, address.city missing).
'use strict';
require('reflect-metadata');
const fs = require('fs');
const path = require('path');
const out = process.argv[2];
const bad = { email: 'not-an-email', age: -1 };
const save = (name, value) => {
  fs.writeFileSync(path.join(out, name), JSON.stringify(value, null, 2) + '\n');
};
const version = (pkg) => require(pkg + '/package.json').version;
const versions = {};

async function main() {
  // zod: issues[], the error's own message (JSON of the issues), flatten() and format()/treeifyError().
  {
    const { z } = require('zod');
    versions.zod = version('zod');
    const User = z.object({ name: z.string(), email: z.email(), age: z.number().int().min(0) });
    const r = User.safeParse(bad);
    save('zod-issues.json', { issues: r.error.issues });
    save('zod-error-message.json', { message: r.error.message });
    save('zod-flatten.json', r.error.flatten());
    save('zod-format.json', r.error.format());
  }
  // ajv: errors[] with instancePath, params.missingProperty for required.
  {
    const Ajv = require('ajv');
    const addFormats = require('ajv-formats');
    versions.ajv = version('ajv');
    const ajv = new Ajv({ allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile({
      type: 'object',
      required: ['name', 'email', 'address'],
      properties: {
        name: { type: 'string' },
        email: { type: 'string', format: 'email' },
        age: { type: 'integer', minimum: 0 },
        address: { type: 'object', required: ['city'], properties: { city: { type: 'string' } } },
      },
    });
    validate({ ...bad, address: {} });
    save('ajv-errors.json', validate.errors);
  }
  // joi: the ValidationError as JSON (details[] with path arrays).
  {
    const Joi = require('joi');
    versions.joi = version('joi');
    const schema = Joi.object({
      name: Joi.string().required(),
      email: Joi.string().email().required(),
      age: Joi.number().integer().min(0),
    });
    const { error } = schema.validate(bad, { abortEarly: false });
    save('joi-validation-error.json', JSON.parse(JSON.stringify(error)));
  }
  // yup: the ValidationError as JSON (inner[] with path, errors).
  {
    const yup = require('yup');
    versions.yup = version('yup');
    const schema = yup.object({
      name: yup.string().required(),
      email: yup.string().email().required(),
      age: yup.number().integer().min(0),
      address: yup.object({ city: yup.string().required() }),
    });
    try {
      await schema.validate({ ...bad, address: {} }, { abortEarly: false });
    } catch (e) {
      save('yup-validation-error.json', JSON.parse(JSON.stringify(e)));
    }
  }
  // class-validator: ValidationError[] (property, constraints, children), as Nest's pipes see it.
  {
    const cv = require('class-validator');
    const { plainToInstance, Type } = require('class-transformer');
    versions['class-validator'] = version('class-validator');
    class Address {}
    cv.IsString()(Address.prototype, 'city');
    cv.IsNotEmpty()(Address.prototype, 'city');
    class User {}
    cv.IsString()(User.prototype, 'name');
    cv.IsNotEmpty()(User.prototype, 'name');
    cv.IsEmail()(User.prototype, 'email');
    cv.IsInt()(User.prototype, 'age');
    cv.Min(0)(User.prototype, 'age');
    cv.ValidateNested()(User.prototype, 'address');
    Type(() => Address)(User.prototype, 'address');
    const user = plainToInstance(User, { ...bad, address: {} });
    const errors = await cv.validate(user);
    save('class-validator-errors.json', JSON.parse(JSON.stringify(errors)));
  }
  // graphql-js: a variable coercion failure, and resolvers throwing GraphQLError with extensions.code
  // (the Apollo convention: BAD_USER_INPUT, NOT_FOUND, FORBIDDEN).
  {
    const g = require('graphql');
    versions.graphql = version('graphql');
    const schema = g.buildSchema(`
      input UserInput { name: String!, email: String!, age: Int! }
      type User { id: ID!, email: String! }
      type Query { user(id: ID!): User, secret: String }
      type Mutation { createUser(input: UserInput!): User }
    `);
    const rootValue = {
      createUser: ({ input }) => {
        throw new g.GraphQLError('must be a valid email', {
          extensions: { code: 'BAD_USER_INPUT', argumentName: 'input.email' },
        });
      },
      user: ({ id }) => {
        throw new g.GraphQLError('User not found', { extensions: { code: 'NOT_FOUND' } });
      },
      secret: () => {
        throw new g.GraphQLError('Not allowed', { extensions: { code: 'FORBIDDEN' } });
      },
    };
    const run = async (source, variableValues) =>
      JSON.parse(JSON.stringify(await g.graphql({ schema, source, rootValue, variableValues })));
    save('graphql-variable-coercion.json',
      await run('mutation($input: UserInput!) { createUser(input: $input) { id } }', { input: bad }));
    save('graphql-bad-user-input.json',
      await run('mutation { createUser(input: {name: "a", email: "not-an-email", age: -1}) { id } }'));
    save('graphql-not-found.json', await run('{ user(id: "42") { id } }'));
    save('graphql-forbidden.json', await run('{ secret }'));
  }
  fs.writeFileSync(path.join(out, 'VERSIONS-node.json'), JSON.stringify(versions, null, 2) + '\n');
}
main().catch((e) => { console.error(e); process.exit(1); });

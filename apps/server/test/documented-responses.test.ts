import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyReply } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkDocumentedResponses } from './documented-responses';

describe("the harness's check of every answer against the API document", () => {
  it('passes a documented answer and reports an undocumented status or body', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(fastifySwagger, { openapi: { info: { title: 't', version: '1' } }, transform: jsonSchemaTransform });
    app.withTypeProvider<ZodTypeProvider>().route({
      method: 'GET',
      url: '/thing',
      schema: { querystring: z.object({ mode: z.string() }), response: { 200: z.object({ a: z.string() }) } },
      // The untyped reply: this route answers what its document does not say, on purpose.
      handler: async (request, typed) => {
        const reply = typed as unknown as FastifyReply;
        if (request.query.mode === 'status') await reply.status(202).send({ a: 'x' });
        else if (request.query.mode === 'body') await reply.type('application/json').send('{"b":1}');
        else await reply.send({ a: 'x' });
      },
    });
    const { violations } = checkDocumentedResponses(app);
    await app.ready();
    await app.inject({ url: '/thing?mode=ok' });
    expect(violations).toEqual([]);
    await app.inject({ url: '/thing?mode=status' });
    await app.inject({ url: '/thing?mode=body' });
    expect(violations).toEqual([expect.stringContaining('answered 202, which its document does not list'), expect.stringContaining("must have required property 'a'")]);
    await app.close();
  });
});

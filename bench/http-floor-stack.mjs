/**
 * The floors of the service's architecture (issue #43, docs/adr/0234): the preview as the
 * evaluate floor answers it, with what the architecture requires added one layer at a time.
 *
 *   worker: a bare node:http server evaluating in a worker thread: the body parsed, the
 *           service's evaluate task message (answers as JSON text) posted to the worker,
 *           which runs the service's own evaluate task and transfers the line's and the
 *           problems' bytes back; the answer written from those bytes as the service does
 *           (src/carts/line-answer.ts), in the envelope. The worker hop's share.
 *   nest:   the same behind a minimal NestJS-on-express app (the checkout's versions): one
 *           POST route, express's JSON body parser, a guard doing the JWT check and the
 *           session read of the GET floors (http-floor-common.mjs), the same worker.
 *           No other middleware, no validation, no interceptor.
 */
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  authenticator,
  bodyText,
  config,
  envelopeHead,
  openDatabase,
  require,
  sendPieces,
} from './http-floor-common.mjs';

/** The evaluation worker, started and ready; `evaluate(input)` resolves with its reply. */
async function evaluationWorker() {
  const worker = new Worker(new URL('./http-floor-worker.mjs', import.meta.url), {
    workerData: config,
  });
  // Tasks are answered in order, one at a time: the replies' resolvers wait in a queue.
  const waiting = [];
  await new Promise((ready, fail) => {
    worker.once('message', ready);
    worker.once('error', fail);
  });
  worker.on('message', (reply) => waiting.shift()(reply));
  const version = { key: `${config.modelId}:1`, modelId: config.modelId, versionNumber: 1 };
  return (input) =>
    new Promise((done) => {
      waiting.push(done);
      worker.postMessage({
        kind: 'evaluate',
        version,
        companyId: input.company_id,
        questions: JSON.stringify(input.questions),
        languageCode: input.language_code ?? null,
        view: 'full',
      });
    });
}

/** The worker's line with the preview's members and its problems, in the envelope, sent. */
function sendEvaluated(res, sent) {
  const bytes = (view) => Buffer.from(view.buffer, view.byteOffset, view.byteLength);
  const line = bytes(sent.line);
  sendPieces(res, [
    envelopeHead(),
    line.subarray(0, line.length - 1),
    Buffer.from(`,"view":"full","id":null,"valid":${sent.valid},`),
    bytes(sent.problems),
    Buffer.from('},"links":{},"errors":[]}'),
  ]);
}

export async function workerFloor() {
  const evaluate = await evaluationWorker();
  return async (req, res) => {
    sendEvaluated(res, await evaluate(JSON.parse(await bodyText(req))));
  };
}

/** Nest's packages, the checkout's copies (ES modules: imported, not required). */
const imported = (name) => import(pathToFileURL(require.resolve(name)));

export async function nestFloor() {
  require('reflect-metadata');
  const { Body, Controller, HttpCode, Module, Post, Res, UseGuards } =
    await imported('@nestjs/common');
  const { NestFactory } = await imported('@nestjs/core');
  const evaluate = await evaluationWorker();
  const authenticated = authenticator(openDatabase());
  const guard = {
    canActivate: async (context) =>
      Boolean(await authenticated(context.switchToHttp().getRequest())),
  };

  // Decorated by hand: this file is plain JavaScript.
  class PreviewController {
    async preview(body, res) {
      sendEvaluated(res, await evaluate(body));
    }
  }
  const proto = PreviewController.prototype;
  const method = Object.getOwnPropertyDescriptor(proto, 'preview');
  for (const decorate of [Post('preview'), HttpCode(200), UseGuards(guard)])
    decorate(proto, 'preview', method);
  Body()(proto, 'preview', 0);
  Res()(proto, 'preview', 1);
  Controller('v1/carts')(PreviewController);
  class FloorModule {}
  Module({ controllers: [PreviewController] })(FloorModule);

  const app = await NestFactory.create(FloorModule, { bodyParser: false, logger: false });
  // express's JSON parser, with room for any body the benchmark sends.
  app.useBodyParser('json', { limit: 16 * 1024 * 1024 });
  await app.init();
  const express = app.getHttpAdapter().getInstance();
  return async (req, res) => express(req, res);
}

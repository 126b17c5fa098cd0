/**
 * Test double: the node-idempotency plugin with its policy declaration removed, so the model
 * expects the contract as written. The library tests run it to show each declared switch is
 * needed: a check of this variant must fail where the declaration covers a documented difference.
 */
import { defineHandler } from '../../plugin.ts';
import nodeIdempotency from '../node-idempotency.ts';

const { policy: _declared, ...undeclared } = nodeIdempotency;

export default defineHandler({ ...undeclared, name: 'node-idempotency-undeclared' });

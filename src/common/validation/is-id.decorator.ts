import { applyDecorators } from '@nestjs/common';
import { IsInt, Max, Min } from 'class-validator';
import { MAX_ID } from '../http/id-param.js';

/**
 * An id (or version number) in a body or query: a positive integer that fits the
 * database's integer columns, so that an absurd value is a 400, never a database error.
 */
export const IsId = () => applyDecorators(IsInt(), Min(1), Max(MAX_ID));

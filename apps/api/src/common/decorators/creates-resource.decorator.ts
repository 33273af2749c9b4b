import { applyDecorators, HttpCode, UseInterceptors } from '@nestjs/common';
import { LocationHeaderInterceptor } from '../interceptors/location-header.interceptor';

/** A create operation: 201 with a Location header naming the new resource. */
export const CreatesResource = () =>
  applyDecorators(HttpCode(201), UseInterceptors(LocationHeaderInterceptor));

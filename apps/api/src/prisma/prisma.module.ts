import { Global, Module } from '@nestjs/common';
import { PrismaService } from './prisma.service';

/** Prisma's client, over the database pool (DatabaseModule), for the accounts' statements. */
@Global()
@Module({ providers: [PrismaService], exports: [PrismaService] })
export class PrismaModule {}

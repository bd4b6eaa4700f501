// Box2D v3's half of `minkowski bench SCENE --lockstep PROGRAM`: builds one
// of Box2D's benchmark scenes as its `benchmark` app does with `-w=1` (one
// worker, continuous on, 1/60 s steps of 4 substeps, the scene's step
// function called before each step), takes the first step untimed, prints
// `ready`, then for each line `K` on stdin takes the next K steps and prints
// their wall time in ms. So the two engines can take turns every few steps,
// and a change in the host's load lands on both.
// Build against a Box2D v3 build tree (see tools/compare-box2d.sh):
//   cc -O2 -I$B2/include -I$B2/shared tools/box2d-lockstep.c
//      $B2/build/shared/libshared.a $B2/build/src/libbox2d.a -lm -lpthread
//      -o box2d-lockstep                               (one command line)
// Usage: box2d-lockstep SCENE
#include "box2d-scenes.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double NowMs( void )
{
	struct timespec t;
	clock_gettime( CLOCK_MONOTONIC, &t );
	return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

int main( int argc, char** argv )
{
	if ( argc != 2 )
	{
		fprintf( stderr, "usage: %s SCENE\n", argv[0] );
		return 2;
	}
	const char* name = argv[1];
	b2WorldDef worldDef = b2DefaultWorldDef();
	worldDef.enableContinuous = true;
	worldDef.workerCount = 1;
	b2WorldId world = b2CreateWorld( &worldDef );
	BenchmarkStepFcn* stepFcn = NULL;
	if ( CreateBenchmark( name, world, &stepFcn ) == false )
	{
		fprintf( stderr, "unknown benchmark %s\n", name );
		return 2;
	}
	int step = 0;
	if ( stepFcn != NULL )
	{
		stepFcn( world, step );
	}
	b2World_Step( world, 1.0f / 60.0f, 4 );
	step += 1;
	printf( "ready\n" );
	fflush( stdout );
	char line[64];
	while ( fgets( line, sizeof( line ), stdin ) != NULL )
	{
		int k = atoi( line );
		double start = NowMs();
		for ( int i = 0; i < k; ++i, ++step )
		{
			if ( stepFcn != NULL )
			{
				stepFcn( world, step );
			}
			b2World_Step( world, 1.0f / 60.0f, 4 );
		}
		printf( "%.6f\n", NowMs() - start );
		fflush( stdout );
	}
	b2DestroyWorld( world );
	return 0;
}

// Prints Box2D v3's own split of its step (b2World_GetProfile), in ms, as
// the mean over steps 2..N of one of its benchmark scenes with one worker:
// the same steps `tools/compare-box2d.sh` times, to set beside
// `minkowski bench SCENE --steps N --profile` (stages, and the solver's
// parts). Box2D's `constraints` is its prepare, warm start, solve, relax,
// restitution and store passes together, each also listed.
// Build against a Box2D v3 build tree (see tools/compare-box2d.sh):
//   cc -O2 -I$B2/include -I$B2/shared tools/box2d-profile.c
//      $B2/build/shared/libshared.a $B2/build/src/libbox2d.a -lm -lpthread
//      -o box2d-profile                                (one command line)
// Usage: box2d-profile SCENE STEPS
#include "box2d-scenes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main( int argc, char** argv )
{
	if ( argc != 3 || atoi( argv[2] ) < 2 )
	{
		fprintf( stderr, "usage: %s SCENE STEPS (STEPS >= 2)\n", argv[0] );
		return 2;
	}
	const char* name = argv[1];
	int steps = atoi( argv[2] );
	b2WorldDef worldDef = b2DefaultWorldDef();
	worldDef.workerCount = 1;
	if ( strcmp( name, "many_pyramids" ) == 0 )
	{
		worldDef.capacity = GetManyPyramidsCapacity();
	}
	b2WorldId world = b2CreateWorld( &worldDef );
	BenchmarkStepFcn* stepFcn = NULL;
	if ( CreateBenchmark( name, world, &stepFcn ) == false )
	{
		fprintf( stderr, "unknown benchmark %s\n", name );
		return 2;
	}
	// b2Profile is a struct of floats (ms), in this order.
	static const char* fields[] = { "step", "pairs", "collide", "solve", "solverSetup", "constraints",
									"prepareConstraints", "integrateVelocities", "warmStart", "solveImpulses",
									"integratePositions", "relaxImpulses", "applyRestitution", "storeImpulses",
									"splitIslands", "transforms", "sensorHits", "jointEvents", "hitEvents",
									"refit", "bullets", "sleepIslands", "sensors" };
	enum { count = sizeof( fields ) / sizeof( fields[0] ) };
	_Static_assert( sizeof( b2Profile ) == count * sizeof( float ), "b2Profile changed: update the field names" );
	double sum[count] = { 0 };
	for ( int i = 0; i < steps; ++i )
	{
		if ( stepFcn != NULL )
		{
			stepFcn( world, i );
		}
		b2World_Step( world, 1.0f / 60.0f, 4 );
		if ( i == 0 )
		{
			continue;
		}
		b2Profile p = b2World_GetProfile( world );
		float values[count];
		memcpy( values, &p, sizeof( values ) );
		for ( int k = 0; k < count; ++k )
		{
			sum[k] += values[k];
		}
	}
	printf( "%s, mean ms over steps 2..%d:\n", name, steps );
	for ( int k = 0; k < count; ++k )
	{
		printf( "  %-20s %8.3f\n", fields[k], sum[k] / ( steps - 1 ) );
	}
	b2DestroyWorld( world );
	return 0;
}
